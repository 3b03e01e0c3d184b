/**
 * A table value edited as a grid: a text input per cell, rows and columns added and removed by
 * buttons. Rows are kept as wide as the widest, so every column has an input in every row.
 */

/** Every row padded with empty cells to the widest row's width (at least one column). */
const squared = (rows: string[][]): string[][] => {
  const width = Math.max(1, ...rows.map((r) => r.length));
  return rows.map((r) => [...r, ...Array<string>(width - r.length).fill('')]);
};

export function TableEditor({
  id,
  label,
  rows,
  onChange,
  describedBy,
  invalid,
}: {
  id: string;
  /** The tag, naming the table and each of its inputs. */
  label: string;
  rows: string[][];
  onChange: (next: string[][]) => void;
  describedBy?: string;
  invalid?: boolean;
}) {
  const grid = squared(rows);
  const width = grid[0]?.length ?? 1;
  const set = (r: number, c: number, value: string) =>
    onChange(grid.map((row, i) => (i === r ? row.map((cell, j) => (j === c ? value : cell)) : row)));
  return (
    <fieldset class="table-editor" id={id} aria-describedby={describedBy}>
      <legend>{label}</legend>
      {grid.length ? (
        <div class="table-scroll">
          <table class="cells">
            <tbody>
              {grid.map((row, r) => (
                // Keyed by place: typing in a cell must not remount (and unfocus) it.
                <tr key={r}>
                  {row.map((cell, c) => (
                    <td key={c}>
                      <input
                        aria-label={`${label} row ${r + 1} column ${c + 1}`}
                        aria-invalid={invalid ? true : undefined}
                        value={cell}
                        onInput={(e) => set(r, c, (e.target as HTMLInputElement).value)}
                      />
                    </td>
                  ))}
                  <td>
                    <button
                      type="button"
                      class="secondary"
                      aria-label={`Remove row ${r + 1} of ${label}`}
                      onClick={() => onChange(grid.filter((_, i) => i !== r))}
                    >
                      Remove row
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p class="muted">No rows.</p>
      )}
      <div class="row">
        <button
          type="button"
          class="secondary"
          aria-label={`Add a row to ${label}`}
          onClick={() => onChange([...grid, Array<string>(width).fill('')])}
        >
          Add a row
        </button>
        <button
          type="button"
          class="secondary"
          aria-label={`Add a column to ${label}`}
          onClick={() => onChange((grid.length ? grid : [[]]).map((row) => [...row, '']))}
        >
          Add a column
        </button>
        {width > 1 ? (
          <button
            type="button"
            class="secondary"
            aria-label={`Remove the last column of ${label}`}
            onClick={() => onChange(grid.map((row) => row.slice(0, -1)))}
          >
            Remove column
          </button>
        ) : null}
      </div>
    </fieldset>
  );
}
