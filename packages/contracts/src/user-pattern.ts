/**
 * The one engine for regular expressions that users supply (recognition field patterns and keywords):
 * RE2 through re2js. RE2 has no backtracking, so a match costs at most O(program size × text length),
 * whatever the pattern: `(a+)+$` is linear. It refuses what it cannot run in linear time
 * (backreferences, lookarounds, possessive quantifiers), and JavaScript-only syntax such as `\u00e9`
 * (RE2 writes `\x{e9}`). The form definition check and the recognition service compile with this one
 * function, so a pattern accepted at definition is a pattern recognition runs.
 */
import { RE2JS } from 're2js';

export type UserPattern = RE2JS;

/**
 * The largest compiled program accepted, in RE2 instructions: about what 1000 characters of plain text
 * compile to (an alternation of names that long is about 900). Repetition multiplies a program
 * (`(.*a){1000}`, eleven characters, is 5,002), and a run costs up to program × text: at this bound one
 * run over the most text recognition gives a pattern (one page) took 0.5 to 2 s (bench/patterns.ts).
 */
export const MAX_PATTERN_PROGRAM = 1000;

export interface UserPatternOptions {
  /** `^` and `$` at every line (RE2's flag `m`); without it they anchor the whole text. */
  multiline?: boolean;
}

export class UnsupportedPatternError extends Error {}

/**
 * Compiles a user's pattern, case-insensitive (Unicode case folding) and optionally multiline.
 * Throws UnsupportedPatternError with the engine's reason.
 *
 * @example
 * compileUserPattern('Invoice\\s+No\\.?\\s+(\\w+)').exec('INVOICE NO. 7')?.[1]; // '7'
 */
export function compileUserPattern(source: string, options: UserPatternOptions = {}): UserPattern {
  const flags = RE2JS.CASE_INSENSITIVE | (options.multiline ? RE2JS.MULTILINE : 0);
  let pattern: RE2JS;
  try {
    pattern = RE2JS.compile(source, flags);
  } catch (err) {
    const reason = err instanceof Error ? err.message.replace(/^error parsing regexp: /, '') : String(err);
    throw new UnsupportedPatternError(reason);
  }
  const size = pattern.programSize();
  if (size > MAX_PATTERN_PROGRAM)
    throw new UnsupportedPatternError(
      `compiles to ${size} instructions, more than ${MAX_PATTERN_PROGRAM} (repetition multiplies a pattern)`,
    );
  return pattern;
}

/** Why the engine refuses a pattern, or undefined when it runs it. */
export function userPatternProblem(source: string, options: UserPatternOptions = {}): string | undefined {
  try {
    compileUserPattern(source, options);
    return undefined;
  } catch (err) {
    if (err instanceof UnsupportedPatternError) return err.message;
    throw err;
  }
}
