/**
 * One upcasting step: the data of one version of a type to the next. `id` is the event's own, for a
 * layout that lacks an id the current one needs. Pure.
 */
export type UpcastStep = (data: Record<string, unknown>, event: { id: string }) => Record<string, unknown>;
