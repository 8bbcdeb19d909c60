import nodemailer from "nodemailer";
import type { MailTransport } from "./outbox-worker.ts";

/**
 * `timeoutMs` bounds every wait on the SMTP server; the outbox passes less than its lease, so a
 * hung server fails the send before another instance could take the same mail.
 */
export function createSmtpTransport(smtpUrl: string, timeoutMs = 30_000): MailTransport {
  // A small pool of kept-open connections: a burst of enquiries does not open one connection each.
  const url = new URL(smtpUrl);
  if (!url.searchParams.has("pool")) url.searchParams.set("pool", "true");
  if (!url.searchParams.has("maxConnections")) url.searchParams.set("maxConnections", "5");
  for (const name of ["connectionTimeout", "greetingTimeout", "socketTimeout"]) {
    if (!url.searchParams.has(name)) url.searchParams.set(name, String(timeoutMs));
  }
  const transporter = nodemailer.createTransport(url.toString());
  return {
    async send(mail) {
      await transporter.sendMail({
        from: mail.from,
        to: mail.to,
        replyTo: mail.replyTo,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html === undefined ? {} : { html: mail.html }),
        ...(mail.headers === undefined ? {} : { headers: mail.headers }),
        messageId: mail.messageId,
        // Our own line-break stripping is the first guard; this is the second.
        disableFileAccess: true,
        disableUrlAccess: true,
      });
    },
    close: () => transporter.close(),
  };
}
