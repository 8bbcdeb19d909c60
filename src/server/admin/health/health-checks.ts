import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../db/client.ts";
import { errorCode } from "../../plugins/request-logging.ts";
import { recordHealthAlerts } from "./health-alerts.ts";
import { evaluateHealth, healthLines, type HealthSettings } from "./health-queries.ts";
import { HEALTH_CHECK_EVERY_MS } from "./health-rules.ts";

// The Health page's lines evaluated on the running site, every minute, by every instance, and
// recorded in health_alerts: the admins are mailed when one turns red, once a day while it stays
// red, and when it clears (health-alerts.ts decides, once across instances). An unref'd timer, as
// the site's other background work (site.ts); a round still going when the next is due is left
// to finish alone, and stop() waits for the one in hand.

export type HealthChecks = {
  /** Evaluates and records now (the timer's round); resolves when done. Never throws. */
  run: () => Promise<void>;
  stop: () => Promise<void>;
};

export function startHealthChecks(options: {
  db: Database;
  settings: HealthSettings;
  siteUrl: string;
  log: FastifyBaseLogger;
  /** Told when alert mail was queued, so the outbox sends it at once. */
  onMailQueued?: () => void;
  everyMs?: number;
}): HealthChecks {
  let current: Promise<void> | undefined;
  const round = async () => {
    const now = new Date();
    const view = await evaluateHealth(options.db, options.settings, { now });
    const recorded = await recordHealthAlerts(options.db, healthLines(view), {
      now,
      siteUrl: options.siteUrl,
      mailConfigured: options.settings.mailConfigured,
    });
    if (recorded.length) {
      options.onMailQueued?.();
      options.log.info({ alerts: recorded }, "health alerts queued for the admins");
    }
  };
  const run = () =>
    (current ??= round()
      .catch((error: unknown) => options.log.warn({ errCode: errorCode(error) }, "health check failed"))
      .finally(() => {
        current = undefined;
      }));
  const timer = setInterval(() => void run(), options.everyMs ?? HEALTH_CHECK_EVERY_MS);
  timer.unref();
  return {
    run,
    async stop() {
      clearInterval(timer);
      await current;
    },
  };
}
