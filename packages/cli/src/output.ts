/**
 * How list and get commands show their answer: `--output json` (the API's JSON, for scripts) or
 * `--output table` (columns for a person, codes named). Without the option: a table when stdout is a
 * terminal, JSON when it is a pipe or a file, so scripts read JSON whatever the terminal.
 */
import { type Command, Option } from 'commander';
import { print } from './server';

export type OutputFormat = 'table' | 'json';
/** A table column: its heading and the cell of one row. */
export type Column<T> = [heading: string, cell: (row: T) => unknown];

const MAX_CELL = 60;

export function addOutputOption(program: Command): Command {
  return program.addOption(
    new Option('--output <format>', 'table or json (default: table on a terminal, json otherwise)')
      .choices(['table', 'json'])
      .env('DOCFLOW_OUTPUT'),
  );
}

function formatOf(command: Command): OutputFormat {
  const { output } = command.optsWithGlobals<{ output?: OutputFormat }>();
  return output ?? (process.stdout.isTTY ? 'table' : 'json');
}

function cellText(value: unknown): string {
  const text =
    value === undefined || value === null
      ? ''
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
  const line = text.replace(/\s+/g, ' ');
  return line.length > MAX_CELL ? `${line.slice(0, MAX_CELL - 1)}…` : line;
}

/** Rows of cells as aligned columns under their headings. */
export function renderTable(headings: string[], rows: string[][]): string {
  const widths = headings.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(headings), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const rowsOf = <T>(items: T[], columns: Column<T>[]) =>
  items.map((item) => columns.map(([, cell]) => cellText(cell(item))));

/**
 * Shows `value`: a list page (`{total, first, items}`) or an array as a table of `columns`, one object
 * as a table of its fields (each named by `fields` when given, else shown as it is).
 */
export function show<T>(
  command: Command,
  value: unknown,
  view: { columns?: Column<T>[]; fields?: Record<string, (value: unknown) => unknown> } = {},
): void {
  if (formatOf(command) === 'json') {
    print(value);
    return;
  }
  const page = value as { total?: number; first?: number; items?: T[] };
  const items = Array.isArray(value) ? (value as T[]) : Array.isArray(page.items) ? page.items : undefined;
  let text: string;
  if (items && view.columns) {
    text = renderTable(
      view.columns.map(([heading]) => heading),
      rowsOf(items, view.columns),
    );
    if (!Array.isArray(value)) {
      const from = (page.first ?? 0) + 1;
      text += `\n${items.length ? `${from}–${from + items.length - 1}` : 'none'} of ${page.total}`;
    }
  } else {
    const entries = Object.entries(value as Record<string, unknown>);
    text = renderTable(
      ['field', 'value'],
      entries.map(([key, v]) => [key, cellText(view.fields?.[key] ? view.fields[key](v) : v)]),
    );
  }
  process.stdout.write(`${text}\n`);
}
