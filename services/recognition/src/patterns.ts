/** The regular expressions of recognition forms: keywords and field patterns, case-insensitive. */

const cache = new Map<string, RegExp | null>();

function compile(source: string, flags: string): RegExp | undefined {
  const key = `${flags}/${source}`;
  let re = cache.get(key);
  if (re === undefined) {
    try {
      re = new RegExp(source, flags);
    } catch {
      // Forms are validated when defined; a pattern stored before a stricter engine is skipped, not fatal.
      re = null;
    }
    cache.set(key, re);
  }
  return re ?? undefined;
}

/**
 * A keyword as a whole word or phrase: letters and digits may not touch it on either side, and any run
 * of whitespace in it matches any run in the text (OCR and PDFs break lines anywhere).
 */
export function keywordPattern(keyword: string): RegExp {
  const body = keyword
    .trim()
    .split(/\s+/)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('\\s+');
  return compile(`(?<![\\p{L}\\p{N}_])${body}(?![\\p{L}\\p{N}_])`, 'iu')!;
}

/** A field pattern: case-insensitive; `table` adds `g` (every match) and `m` (^ and $ per line). */
export function fieldPattern(source: string, table = false): RegExp | undefined {
  return compile(source, table ? 'gim' : 'i');
}
