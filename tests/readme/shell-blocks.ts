/**
 * The README's shell examples: every ```sh block, in file order, except those fenced ```sh norun
 * (README convention: the comment at the top of README.md).
 */

export interface ShellBlock {
  /** 1-based line in the Markdown file of the block's first code line. */
  line: number;
  /** The code lines, with the fence's indentation removed. */
  lines: string[];
}

const OPENING = /^( *)(`{3,})(.*)$/;

/** The ```sh blocks to run; throws on a ```sh fence with a flag other than `norun` (a typo would run it). */
export function runnableShellBlocks(markdown: string): ShellBlock[] {
  const blocks: ShellBlock[] = [];
  let open: { indent: number; fence: string; block?: ShellBlock } | undefined;
  markdown.split('\n').forEach((text, index) => {
    if (open) {
      const closing = text.trim();
      if (/^`+$/.test(closing) && closing.length >= open.fence.length) {
        if (open.block) blocks.push(open.block);
        open = undefined;
      } else open.block?.lines.push(text.slice(Math.min(open.indent, text.length - text.trimStart().length)));
      return;
    }
    const fence = OPENING.exec(text);
    if (!fence) return;
    const [lang, ...flags] = fence[3]!.trim().split(/\s+/);
    open = { indent: fence[1]!.length, fence: fence[2]! };
    if (lang !== 'sh') return;
    const unknown = flags.filter((f) => f !== 'norun');
    if (unknown.length > 0)
      throw new Error(`line ${index + 1}: a sh block takes only the flag norun, not ${unknown.join(' ')}`);
    if (!flags.includes('norun')) open.block = { line: index + 2, lines: [] };
  });
  if (open) throw new Error('a code block is not closed');
  return blocks;
}
