import type { ReactNode } from "react";
import {
  durationWords,
  HEALTH_LINE_LABELS,
  HEALTH_STATE_WORDS,
  type HealthLineKey,
  type HealthState,
  mailKindWords,
  sizeWords,
} from "#shared/admin/health.ts";
import type {
  AdminPagePropsOf,
  BackupHealthView,
  BackupRunView,
  DiskView,
  HealthVerdictView,
  MailHealthView,
  PublishingHealthView,
  ScheduledItemView,
  StorageHealthView,
} from "#shared/admin/pages.ts";
import { adminHref } from "#shared/admin/routes.ts";
import { formatIndiaDateTime } from "../../format.ts";
import { AdminLayout } from "../../layout.tsx";
import { Messages } from "../../ui/messages.tsx";
import { PageHeader } from "../../ui/page-header.tsx";

// The Health page (admins): backups, mail, publishing and storage, each a section whose state is
// a word and a mark as well as a colour, with each problem in words and the facts behind it.
// Evaluated as the page was opened, on the instance that served it (src/server/admin/health/).

const tones: Record<HealthState, { mark: string; className: string }> = {
  ok: { mark: "✓", className: "border-green-300 bg-green-50 text-green-900" },
  red: { mark: "✕", className: "border-red-300 bg-red-50 text-red-900" },
  off: { mark: "○", className: "border-slate-300 bg-slate-50 text-slate-800" },
};

function StateBadge({ state }: { state: HealthState }) {
  const tone = tones[state];
  return (
    <span
      data-health-state={state}
      className={`inline-flex items-center gap-1 rounded-md border px-2 py-0.5 text-sm font-semibold whitespace-nowrap ${tone.className}`}
    >
      <span aria-hidden="true">{tone.mark}</span>
      {HEALTH_STATE_WORDS[state]}
    </span>
  );
}

const sectionId = (line: HealthLineKey) => `health-${line}`;

/** A line's section: its heading and state, its problems in words, then its facts. */
function Section({
  line,
  verdict,
  children,
}: {
  line: HealthLineKey;
  verdict: HealthVerdictView;
  children: ReactNode;
}) {
  const id = sectionId(line);
  return (
    <section className="admin-card mt-4" aria-labelledby={`${id}-title`} id={id} data-health-line={line}>
      <div className="flex flex-wrap items-center gap-3">
        <h2 id={`${id}-title`} className="text-lg font-semibold text-navy-900">
          {HEALTH_LINE_LABELS[line]}
        </h2>
        <StateBadge state={verdict.state} />
      </div>
      {verdict.reasons.length ? (
        <ul
          className={`mt-3 grid gap-1 rounded-md border px-4 py-3 text-sm ${verdict.state === "red" ? "border-red-300 bg-red-50 text-red-950" : "border-slate-300 bg-slate-50 text-slate-800"}`}
          data-health-reasons
        >
          {verdict.reasons.map((reason) => (
            <li key={reason} className="wrap-anywhere">
              {reason}
            </li>
          ))}
        </ul>
      ) : null}
      {children}
    </section>
  );
}

/** The facts of a section, a term and its value each. */
function Facts({ children }: { children: ReactNode }) {
  return <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[15rem_minmax(0,1fr)]">{children}</dl>;
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="font-medium text-slate-700">{term}</dt>
      <dd className="wrap-anywhere text-slate-900">{children}</dd>
    </>
  );
}

/** "29 Nov 2026, 02:30 IST (6 h 5 min ago)". */
function When({ at, now }: { at: string; now: string }) {
  const ms = Date.parse(now) - Date.parse(at);
  return (
    <>
      <time dateTime={at}>{formatIndiaDateTime(at)}</time>
      {` (${ms >= 0 ? `${durationWords(ms)} ago` : `in ${durationWords(ms)}`})`}
    </>
  );
}

const triggerWords: Record<string, string> = {
  scheduled: "the daily schedule",
  "health-page": "the Health page",
  command: "npm run backup",
};

function LastBackup({ run, now }: { run: BackupRunView; now: string }) {
  const by = `${triggerWords[run.trigger] ?? run.trigger}, ${run.requestedBy}`;
  if (run.status === "failed")
    return (
      <>
        Failed, started <When at={run.startedAt} now={now} /> by {by}: {run.error ?? "no reason recorded"}
      </>
    );
  return (
    <>
      <When at={run.finishedAt ?? run.startedAt} now={now} />
      {run.bytes !== null ? `, ${sizeWords(run.bytes)}` : ""}, made by {by}
    </>
  );
}

function BackupsSection({ backups, now }: { backups: BackupHealthView; now: string }) {
  const { last } = backups;
  const done = last?.status === "done" ? last : null;
  return (
    <Section line="backups" verdict={backups}>
      <Facts>
        <Fact term="Last backup">{last ? <LastBackup run={last} now={now} /> : "None yet"}</Fact>
        {backups.running ? (
          <Fact term="Running now">
            Since <When at={backups.running.startedAt} now={now} />, by{" "}
            {triggerWords[backups.running.trigger] ?? backups.running.trigger}, {backups.running.requestedBy}
          </Fact>
        ) : null}
        <Fact term="Restore drill">
          {!done ? (
            last ? (
              "None: the last backup failed"
            ) : (
              "No backup yet"
            )
          ) : done.drill.status === null ? (
            "Not run yet"
          ) : (
            <>
              {done.drill.status === "passed" ? "Passed" : "Failed"}
              {done.drill.at ? (
                <>
                  , <When at={done.drill.at} now={now} />
                </>
              ) : null}
              {done.drill.detail ? `: ${done.drill.detail}` : ""}
            </>
          )}
        </Fact>
        <Fact term="Copy off the machine">
          {!backups.offsite && (!done || done.copy.status === null) ? (
            "Not set up (BACKUP_S3_URL): the backups are on this machine only"
          ) : !done ? (
            last ? (
              "None: the last backup failed"
            ) : (
              "No backup yet"
            )
          ) : done.copy.status === null ? (
            "Not tried yet"
          ) : (
            <>
              {done.copy.status === "copied" ? "Copied" : "Failed"}
              {done.copy.at ? (
                <>
                  , <When at={done.copy.at} now={now} />
                </>
              ) : null}
              {done.copy.detail ? `: ${done.copy.detail}` : ""}
            </>
          )}
        </Fact>
        <Fact term="Last verified backup">
          {backups.lastVerifiedAt ? <When at={backups.lastVerifiedAt} now={now} /> : "None yet"}
        </Fact>
        <Fact term="Next scheduled backup">
          {backups.nextScheduledAt ? (
            <When at={backups.nextScheduledAt} now={now} />
          ) : (
            "None: the site's schedule is off (BACKUP_SCHEDULE=false)"
          )}
        </Fact>
      </Facts>
      <div data-backup-actions className="mt-4 flex flex-wrap items-center gap-2 empty:hidden">
        {backups.canBackUpNow ? (
          <form method="post" action={adminHref("healthBackup")}>
            <button type="submit" className="admin-button">
              Make a backup now
            </button>
          </form>
        ) : backups.running ? (
          <p className="text-sm text-slate-700">A backup is being made now.</p>
        ) : null}
        {backups.download ? (
          <a
            className="admin-button-secondary"
            href={adminHref("healthBackupDownload", { id: String(backups.download.id) })}
            download={backups.download.fileName}
          >
            Download the last backup ({sizeWords(backups.download.bytes)})
          </a>
        ) : null}
      </div>
    </Section>
  );
}

function MailSection({ mail, now }: { mail: MailHealthView; now: string }) {
  if (!mail.configured)
    return (
      <Section line="mail" verdict={mail}>
        <p className="mt-3 text-sm text-slate-700">
          Enquiries are kept in the inbox, but no notification, sign-in link or alert is mailed.
        </p>
      </Section>
    );
  const oldest = mail.oldestWaiting;
  return (
    <Section line="mail" verdict={mail}>
      <Facts>
        <Fact term="Waiting to go out">
          {mail.waiting === 0 ? (
            "Nothing"
          ) : (
            <>
              {mail.waiting === 1 ? "1 message" : `${mail.waiting} messages`}
              {oldest ? (
                <>
                  ; the oldest, {mailKindWords(oldest.kind)}, queued <When at={oldest.queuedAt} now={now} />
                  {oldest.attempts ? `, tried ${oldest.attempts === 1 ? "once" : `${oldest.attempts} times`}` : ""}
                  {oldest.lastError ? `: ${oldest.lastError}` : ""}
                </>
              ) : null}
            </>
          )}
        </Fact>
        <Fact term="Being tried again">{mail.retrying === 0 ? "None" : `${mail.retrying} after a failed attempt`}</Fact>
        <Fact term="Given up, last 24 hours">
          {mail.failedLastDay === 0 ? (
            "None"
          ) : (
            <>
              {mail.failedLastDay}
              {mail.lastFailure ? (
                <>
                  ; the last <When at={mail.lastFailure.at} now={now} />: {mail.lastFailure.error}
                </>
              ) : null}
            </>
          )}
        </Fact>
        <Fact term="Last message sent">{mail.lastSentAt ? <When at={mail.lastSentAt} now={now} /> : "None yet"}</Fact>
      </Facts>
    </Section>
  );
}

function ItemLink({ item, now }: { item: ScheduledItemView; now: string }) {
  return (
    <>
      <a href={item.href} className="admin-link">
        {item.title}
      </a>{" "}
      ({item.kind === "article" ? "article" : "project"}, due <When at={item.at} now={now} />)
    </>
  );
}

function PublishingSection({ publishing, now }: { publishing: PublishingHealthView; now: string }) {
  const offset = publishing.clockOffsetMs;
  return (
    <Section line="publishing" verdict={publishing}>
      {publishing.late.length ? (
        <>
          <h3 className="mt-3 text-sm font-semibold text-red-950">Not public yet on this instance</h3>
          <ul className="mt-1 grid gap-1 text-sm" data-late-items>
            {publishing.late.map((item) => (
              <li key={item.href}>
                <span aria-hidden="true" className="mr-1 text-red-800">
                  ✕
                </span>
                <ItemLink item={item} now={now} />
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <Facts>
        <Fact term="Scheduled">
          {publishing.scheduled === 0 ? (
            "Nothing scheduled"
          ) : (
            <>
              {publishing.scheduled === 1 ? "1 item" : `${publishing.scheduled} items`} to come
              {publishing.next ? (
                <>
                  ; the next: <ItemLink item={publishing.next} now={now} />
                </>
              ) : null}
            </>
          )}
        </Fact>
        <Fact term="Clock">
          {Math.abs(offset) < 1000
            ? "This instance's clock agrees with the database's."
            : `This instance's clock is ${offset < 0 ? `${durationWords(offset)} behind` : `${durationWords(offset)} ahead of`} the database's${Math.abs(offset) < 60_000 ? " (by seconds)" : ""}.`}
        </Fact>
      </Facts>
    </Section>
  );
}

function Disk({ disk }: { disk: DiskView }) {
  const where = disk.missing ? `${disk.path} (not made yet: the disk it will be on)` : disk.path;
  if ("unreadable" in disk)
    return (
      <>
        {where}: could not be read ({disk.unreadable})
      </>
    );
  const share = disk.totalBytes > 0 ? (disk.freeBytes / disk.totalBytes) * 100 : 0;
  return (
    <>
      {sizeWords(disk.freeBytes)} free of {sizeWords(disk.totalBytes)} ({share.toFixed(1)}%), at {where}
    </>
  );
}

function StorageSection({ storage }: { storage: StorageHealthView }) {
  return (
    <Section line="disk" verdict={storage}>
      <Facts>
        <Fact term="The database">
          {storage.databaseBytes !== null ? sizeWords(storage.databaseBytes) : "Its size could not be read"}
          {storage.database === "server"
            ? ", on the PostgreSQL server (DATABASE_URL): its disk is that server's, and the site cannot read how much is free there. Watch it on the server."
            : ", embedded in the site (DATA_DIR)"}
        </Fact>
        {storage.disks.map((disk) => (
          <Fact key={disk.label} term={`Disk of ${disk.label}`}>
            <Disk disk={disk} />
          </Fact>
        ))}
      </Facts>
    </Section>
  );
}

export function HealthPage({ viewer, health, notice, error }: AdminPagePropsOf<"health">) {
  const now = health.checkedAt;
  const lines: [HealthLineKey, HealthVerdictView][] = [
    ["backups", health.backups],
    ["mail", health.mail],
    ["publishing", health.publishing],
    ["disk", health.storage],
  ];
  return (
    <AdminLayout viewer={viewer} current="health">
      <PageHeader
        title="Health"
        description={
          <>
            Checked <time dateTime={now}>{formatIndiaDateTime(now)}</time> on the instance that served this page. Admins
            are mailed when a line turns red, once a day while it stays red, and when it is clear again.
          </>
        }
      />
      <div className="mt-4">
        <Messages notice={notice} error={error} />
      </div>
      {health.mail.state === "red" ? (
        <div role="alert" className="mb-4 rounded-md border-2 border-red-400 bg-red-50 px-4 py-3 text-red-950">
          <p className="font-semibold">
            <span aria-hidden="true">✕ </span>Mail is failing: alerts cannot reach anyone by mail until it works again.
          </p>
          <p className="mt-1 text-sm">
            Check the SMTP settings and the mail server. This page and the banner on every page of the back office show
            what is wrong meanwhile.
          </p>
        </div>
      ) : null}
      <nav aria-label="Health at a glance">
        <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-4" data-health-summary>
          {lines.map(([line, verdict]) => (
            <li key={line}>
              <a
                href={`#${sectionId(line)}`}
                className="flex items-center justify-between gap-2 rounded-md border border-slate-200 bg-white px-3 py-2 text-sm font-medium text-navy-900 hover:bg-slate-50"
              >
                {HEALTH_LINE_LABELS[line]}
                <StateBadge state={verdict.state} />
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <BackupsSection backups={health.backups} now={now} />
      <MailSection mail={health.mail} now={now} />
      <PublishingSection publishing={health.publishing} now={now} />
      <StorageSection storage={health.storage} />
    </AdminLayout>
  );
}
