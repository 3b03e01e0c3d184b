/** The `list` commands' paging: one page from `--first`, or with `--all` every page from there on. */
export interface Page<T> {
  total: number;
  items: T[];
}

/** `{total, first, items}` as `list` commands print it (total: the server's `svc-total-count`). */
export async function collectPages<T>(
  first: number,
  all: boolean,
  pageAt: (first: number) => Promise<Page<T>>,
): Promise<{ total: number; first: number; items: T[] }> {
  const items: T[] = [];
  let next = first;
  let total = 0;
  do {
    const page = await pageAt(next);
    items.push(...page.items);
    total = page.total;
    next += page.items.length;
    if (page.items.length === 0) break;
  } while (all && next < total);
  return { total, first, items };
}
