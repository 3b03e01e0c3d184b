/**
 * `AccountCreated`, `PersonUpdated`, `PasswordChanged` (account-<id>): version 1 carries the personal
 * fields (e-mail, names, phones, unit, password hash) in clear (before 3a3d319) or sealed under the
 * account's key (`sealed`, since); version 2, written since versions are counted, is always sealed. A
 * clear version 1 stays as it is: sealing takes the account's key, which no pure function holds — the
 * identity service opens either layout (StoredIdentityEvents), and re-sealing the clear ones is
 * identity's migration into a new data directory.
 */
import type { UpcastStep } from './step';

export const personalFieldsSteps: readonly UpcastStep[] = [(data) => data];
