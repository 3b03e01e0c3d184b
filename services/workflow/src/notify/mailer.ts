/** SMTP through nodemailer: the one place an address meets the network. */
import { createTransport } from 'nodemailer';

export interface Mail {
  to: { name: string; address: string };
  subject: string;
  text: string;
  /** Stable per fact and recipient: a mail client shows a resent copy once. */
  messageId: string;
}

export interface Mailer {
  /**
   * True when the server took the mail, false when it refused it for good (a 5xx: retrying cannot
   * help); throws when it may take it later (unreachable, a 4xx), so the fact is tried again.
   */
  send(mail: Mail): Promise<boolean>;
  close(): void;
}

export function smtpMailer(url: string, from: string): Mailer {
  const transport = createTransport(url);
  return {
    async send(mail) {
      try {
        await transport.sendMail({ from, ...mail });
        return true;
      } catch (error) {
        const code = (error as { responseCode?: number }).responseCode;
        if (code !== undefined && code >= 500) return false;
        throw error;
      }
    },
    close: () => transport.close(),
  };
}
