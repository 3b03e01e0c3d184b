/** Deputies, identity's concept: a person may name another person who stands in for them while enabled. */
import type { ResolvedAccount } from './internal';

/** A person's deputy as the identity service keeps it. */
export type Deputy = NonNullable<ResolvedAccount['deputy']>;

/** Assignee `usr-` id → that assignee's deputy, for the assignees the caller looked up. */
export type DeputiesOf = Readonly<Record<string, Deputy | undefined>>;

/** True when `userId` is the enabled deputy of `assignee`. */
export function isEnabledDeputy(deputiesOf: DeputiesOf, assignee: string, userId: string): boolean {
  const deputy = deputiesOf[assignee];
  return deputy?.enabled === true && deputy.id === userId;
}

/** True when `deputy` names an absence that holds at `at` (ISO 8601 UTC): [from, to). */
export function isAbsent(deputy: Deputy | undefined, at: string): boolean {
  return !!deputy?.from && !!deputy.to && deputy.from <= at && at < deputy.to;
}
