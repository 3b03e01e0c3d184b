/**
 * The regular expressions of recognition forms, keywords and field patterns, on the RE2 engine of
 * @docflow/contracts (`compileUserPattern`, the same one the form definition check uses). A run costs at
 * most O(program × text): the program is bounded when the form is defined, the text here, per page
 * (README, "Bounds").
 */
import { compileUserPattern, UnsupportedPatternError, type UserPattern } from '@docflow/contracts';

/** The characters of one page that patterns read; a denser page is read up to here. */
export const MAX_PAGE_TEXT = 20_000;
/** Compiled patterns kept between files (each a few kilobytes: runs drop their DFA states). */
const MAX_CACHED = 500;
/** A letter, digit or _ may not touch a keyword. */
const WORD_CHAR = '\\p{L}\\p{N}_';
/** What JavaScript's `\s` matches: RE2's `\s` is ASCII only. */
const SPACE_RUN = '[\\t-\\r\\p{Z}\\x{FEFF}]+';

/**
 * A page's text as patterns read it: its first MAX_PAGE_TEXT characters, every line break as `\n` and
 * every other whitespace character as a space. RE2's `\s`, `.` and `$` know ASCII whitespace and `\n`
 * only; so `\s` still matches the no-break spaces PDFs carry, as it did before RE2.
 */
export function patternText(text: string): string {
  return text
    .slice(0, MAX_PAGE_TEXT)
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replace(/[\v\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\ufeff]/g, ' ');
}

/**
 * Whether `keyword` is on the page as a whole word or phrase: a letter, digit or _ may not touch it on
 * either side, and any run of whitespace in it matches any run in the text (OCR and PDFs break lines
 * anywhere). Case-insensitive, Unicode-aware.
 */
export function hasKeyword(text: string, keyword: string): boolean {
  const body = keyword
    .trim()
    .split(/\s+/)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join(SPACE_RUN);
  // RE2 has no lookarounds: the neighbours are matched (or the text's ends), which `test` allows.
  const re = compile(`(?:^|[^${WORD_CHAR}])${body}(?:[^${WORD_CHAR}]|$)`, false);
  return re ? run(re, () => re.test(text)) : false;
}

/** Whether a field pattern matches somewhere in the text (flag i). False for a pattern RE2 refuses. */
export function fieldMatches(text: string, source: string): boolean {
  const re = compile(source, false);
  return re ? run(re, () => re.test(text)) : false;
}

/** The first match of a field pattern (flag i), with its groups. */
export function firstMatch(text: string, source: string): RegExpMatchArray | undefined {
  const re = compile(source, false);
  // re2js answers as RegExp.prototype.exec does: the match, its groups (undefined when not taking part), index.
  return re ? run(re, () => (re.exec(text) as RegExpMatchArray | null) ?? undefined) : undefined;
}

/** Every non-empty match of a field pattern, up to `max` (flags i and m: `^` and `$` at every line). */
export function everyMatch(text: string, source: string, max: number): RegExpMatchArray[] {
  const re = compile(source, true);
  if (!re) return [];
  return run(re, () => {
    const matches: RegExpMatchArray[] = [];
    for (const m of re.matchAll(text)) {
      if (m[0] === '') continue;
      matches.push(m);
      if (matches.length === max) break;
    }
    return matches;
  });
}

const cache = new Map<string, UserPattern | null>();

function compile(source: string, multiline: boolean): UserPattern | undefined {
  const key = `${multiline ? 'm' : 'i'}/${source}`;
  let re = cache.get(key);
  if (re === undefined) {
    try {
      re = compileUserPattern(source, { multiline });
    } catch (err) {
      // Forms are checked when defined; a pattern recorded before a stricter check is skipped, not fatal.
      if (!(err instanceof UnsupportedPatternError)) throw err;
      re = null;
    }
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
    cache.set(key, re);
  }
  return re ?? undefined;
}

/**
 * One run of a pattern. Afterwards its lazy DFA's states are dropped: RE2 lets them grow to 8 MB a
 * pattern, and kept in the cache they would add up over every pattern of every form.
 */
function run<T>(re: UserPattern, match: () => T): T {
  try {
    return match();
  } finally {
    re.re2().lazyDFA?.clearCache();
  }
}
