/** A webhook subscription: where to send which event types, and the secret that signs them. Nothing here does I/O. */
import type { Webhook } from '@docflow/contracts';

export interface Subscription extends Webhook {
  /** Kept to sign; never logged or answered again after the create. */
  secret: string;
}

/** What the API shows of a subscription: everything but the secret. */
export const publicView = ({ secret: _secret, ...webhook }: Subscription): Webhook => webhook;
