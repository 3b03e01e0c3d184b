/** The e-mail notifications' settings, in both run modes. */
import { z } from 'zod';

export const NotifyEnv = z.object({
  /** SMTP server of the e-mail notifications, e.g. `smtp://user:pass@mail.example:587`; none: no e-mail. */
  DOCFLOW_SMTP_URL: z.url().optional(),
  /** The notifications' sender. */
  DOCFLOW_MAIL_FROM: z.string().min(3).default('docflow <docflow@localhost>'),
  /**
   * Where people reach docflow (the gateway), e.g. `https://docflow.example.com`: each e-mail links to
   * the document's console page under it. None: the e-mails carry no link.
   */
  DOCFLOW_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
});
export type NotifyEnv = z.infer<typeof NotifyEnv>;

export interface MailSettings {
  smtpUrl: string;
  from: string;
  /** DOCFLOW_PUBLIC_URL without a trailing slash. */
  publicUrl?: string;
}

export function notifySettings(env: NotifyEnv): { mail?: MailSettings } {
  if (!env.DOCFLOW_SMTP_URL) return {};
  const publicUrl = env.DOCFLOW_PUBLIC_URL?.replace(/\/+$/, '');
  return {
    mail: { smtpUrl: env.DOCFLOW_SMTP_URL, from: env.DOCFLOW_MAIL_FROM, ...(publicUrl ? { publicUrl } : {}) },
  };
}
