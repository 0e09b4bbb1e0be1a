import { access, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ServerClient } from "postmark";
import type { MailMessage } from "./mail.ts";
import { lazy } from "../lazy.ts";

/**
 * What happened to one send: delivered (with Postmark's message id), transient (try again later: network, timeout,
 * 429, 5xx), or permanent (a request Postmark will never accept: bad sender, inactive recipient, bad token).
 */
export type SendResult =
  { outcome: "delivered"; messageId: string } | { outcome: "transient"; reason: string } | { outcome: "permanent"; reason: string };

export interface Mailer {
  send(message: MailMessage): Promise<SendResult>;
  /** Whether this message already went out (after an attempt whose outcome is unknown): its id if so. */
  findSent(message: MailMessage): Promise<string | null>;
  /** Where the messages go, for logs: "postmark" or the outbox folder. */
  readonly kind: string;
}

export interface PostmarkConfig {
  token: string;
  /** A full URL such as http://127.0.0.1:9999; default Postmark's API. */
  apiUrl?: string;
  timeoutSeconds?: number;
}

/** Postmark through its official client (`postmark`), pointed at `apiUrl` when one is given. */
export function postmarkMailer({ token, apiUrl, timeoutSeconds = 10 }: PostmarkConfig): Mailer {
  const url = new URL(apiUrl ?? "https://api.postmarkapp.com");
  // Postmark's package loads with the first e-mail: most requests that wire a mailer send none.
  const connected = lazy(() =>
    import("postmark").then(
      ({ ServerClient }) =>
        new ServerClient(token, { useHttps: url.protocol === "https:", requestHost: url.host, timeout: timeoutSeconds }),
    ),
  );
  return {
    kind: "postmark",
    async send(m) {
      try {
        const res = await (
          await connected()
        ).sendEmail({
          From: m.from,
          To: m.to,
          ReplyTo: m.replyTo,
          Subject: m.subject,
          TextBody: m.text,
          HtmlBody: m.html,
          Tag: m.tag,
          Metadata: m.metadata,
          MessageStream: "outbound",
          TrackOpens: false,
        });
        return { outcome: "delivered", messageId: res.MessageID };
      } catch (error) {
        return classify(error);
      }
    },
    async findSent(m) {
      const res = await (
        await connected()
      ).getOutboundMessages({ count: 1, offset: 0, tag: m.tag, [`metadata_${m.idField}`]: m.metadata[m.idField] });
      return res.Messages[0]?.MessageID ?? null;
    },
  };
}

/** Postmark's statuses and error codes (https://postmarkapp.com/developer/api/overview#error-codes). */
export function classify(error: unknown): SendResult {
  const e = error as { statusCode?: number; code?: number; message?: string };
  const reason = `${e.statusCode ?? "network"}${e.code ? ` code ${e.code}` : ""}: ${e.message ?? String(error)}`;
  if (e.statusCode === undefined || e.statusCode === 0) return { outcome: "transient", reason };
  if (e.statusCode === 429 || e.statusCode >= 500) return { outcome: "transient", reason };
  // 422 code 100 is maintenance; everything else Postmark refused will be refused again.
  if (e.code === 100) return { outcome: "transient", reason };
  return { outcome: "permanent", reason };
}

/**
 * Without Postmark (the local runtime), each e-mail is one file in the outbox folder, as the inbox would show it, named
 * after the message (`<lead id>.eml.txt`, `leads-held-<day>-<kind>.eml.txt`).
 */
export function outboxMailer(dir: string): Mailer {
  return {
    kind: `outbox ${dir}`,
    async send(m) {
      await mkdir(dir, { recursive: true });
      const id = m.metadata[m.idField]!;
      const headers = [
        `From: ${m.from}`,
        `To: ${m.to}`,
        ...(m.replyTo ? [`Reply-To: ${m.replyTo}`] : []),
        `Subject: ${m.subject}`,
        `X-Tag: ${m.tag}`,
        ...(m.metadata.lead_id ? [`X-Lead-Id: ${m.metadata.lead_id}`] : []),
      ];
      await writeFile(join(dir, `${id}.eml.txt`), `${headers.join("\n")}\n\n${m.text}\n`, { flag: "wx" }).catch(
        (error: NodeJS.ErrnoException) => {
          if (error.code !== "EEXIST") throw error;
        },
      );
      await writeFile(join(dir, `${id}.html`), m.html);
      return { outcome: "delivered", messageId: `outbox:${id}` };
    },
    async findSent(m) {
      const id = m.metadata[m.idField]!;
      return access(join(dir, `${id}.eml.txt`)).then(
        () => `outbox:${id}`,
        () => null,
      );
    },
  };
}
