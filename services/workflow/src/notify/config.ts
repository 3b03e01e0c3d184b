/** The e-mail notifications' settings, in both run modes. */
import { z } from 'zod';

export const NotifyEnv = z.object({
  /** SMTP server of the e-mail notifications, e.g. `smtp://user:pass@mail.example:587`; none: no e-mail. */
  DOCFLOW_SMTP_URL: z.url().optional(),
  /** The notifications' sender. */
  DOCFLOW_MAIL_FROM: z.string().min(3).default('docflow <docflow@localhost>'),
});
export type NotifyEnv = z.infer<typeof NotifyEnv>;

export interface MailSettings {
  smtpUrl: string;
  from: string;
}

export function notifySettings(env: NotifyEnv): { mail?: MailSettings } {
  return env.DOCFLOW_SMTP_URL ? { mail: { smtpUrl: env.DOCFLOW_SMTP_URL, from: env.DOCFLOW_MAIL_FROM } } : {};
}
