// The demo workspace's last few weeks, so that a newcomer's Insights, comments and inbox show
// what the product is for: comments written by a client and by the team, fixed by a developer
// and by an agent, Live, verified, one sent back and fixed again, one waiting long, some still
// open. Played through the same services as real use (with a clock set in the past), so that
// timelines, measures, roll-ups and notifications agree.
import type { Anchor, Priority } from '@svc/contract';
import type { Actor } from '../../actor.js';
import type { Clock } from '../../clock.js';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../auth/repo.js';
import { reportBuild } from '../builds/service.js';
import { assignComment, claimComment } from '../comments/assignment.js';
import { addReply, applyComment, createComment } from '../comments/service.js';
import { setLabels, setPriority } from '../comments/triage.js';
import { createLabel } from '../labels/service.js';
import { notificationSink } from '../notifications/service.js';
import { verifyComment } from '../verification/service.js';

const DAY_MS = 24 * 3600_000;
/** How long ago the story begins. */
const STORY_DAYS = 24;

export type StoryDeps = Pick<AppContext, 'db' | 'database' | 'events' | 'rules'>;

/** Who plays in the story: the workspace's admin, a developer, a client, and an agent (through MCP). */
export interface Cast {
  admin: UserRow;
  developer: UserRow;
  client: UserRow;
  agent: UserRow;
}

const actorOf = (user: UserRow, via?: 'mcp'): Actor => ({
  id: user.id,
  workspaceId: user.workspace_id,
  name: user.name,
  role: user.role,
  projectId: user.project_id,
  ...(via ? { via } : {}),
  credential: {
    kind: via ? 'apiKey' : 'session',
    id: `demo-${user.id}`,
    hash: '',
    lastUsedAt: 0,
    expiresAt: 0,
    idleMs: 0,
  },
});

/** The pinned element of the demo page the first comment is about. */
const TEAM_PRICE: Anchor = {
  selector: '#plan-team > p',
  x: 24,
  y: 12,
  tag: 'p',
  role: 'paragraph',
  text: { exact: '$49 /month' },
  classes: ['price'],
  context: {
    parent: 'Team $49 /month Unlimited dashboards 1-year history Alerts by e-mail Choose Team',
    previous: 'Team',
    next: 'Unlimited dashboards 1-year history Alerts by e-mail',
  },
  textCount: 1,
};

/** Plays the story on the demo project (`projectKey`, its page `pageUrl`), ending now (`now`, ms). */
export async function playDemoStory(
  deps: StoryDeps,
  cast: Cast,
  project: { key: string; pageUrl: string },
  now: number,
): Promise<void> {
  let time = now - STORY_DAYS * DAY_MS;
  const clock: Clock = { now: () => time };
  const at = (day: number, hour: number) => {
    time = Math.max(time, now - (STORY_DAYS - day) * DAY_MS + hour * 3600_000 - 12 * 3600_000);
  };
  // Notifications are dated by the story's clock too.
  const events = { raise: notificationSink(deps.database, clock).raise, changed: deps.events.changed };
  const ctx = { ...deps, clock, events };
  const [admin, developer, client] = [actorOf(cast.admin), actorOf(cast.developer), actorOf(cast.client)];
  const agent = actorOf(cast.agent, 'mcp');
  // The team's labels, made by the admin; the story triages with them.
  const labels: Record<string, string> = {};
  for (const [name, color] of [
    ['Bug', 'red'],
    ['Accessibility', 'blue'],
    ['Copy', 'teal'],
    ['Question', 'gray'],
  ] as const) {
    labels[name] = (await createLabel(ctx, admin, { name, color })).id;
  }
  const triage = async (id: string, priority: Priority, ...names: string[]) => {
    await setPriority(ctx, admin, id, priority);
    if (names.length)
      await setLabels(
        ctx,
        admin,
        id,
        names.map((name) => labels[name] ?? ''),
      );
  };
  let commits = 0;
  const commit = () => `${(0xa1b2c3d + ++commits * 0x10f).toString(16)}`;
  const write = async (who: Actor, body: string, anchor: Anchor | null = null) =>
    (await createComment(ctx, who, project.key, { body, pageUrl: project.pageUrl, anchor })).id;
  const apply = async (who: Actor, id: string) => {
    const applied = await applyComment(ctx, who, id, { commitSha: commit() });
    return applied.commit_sha ?? '';
  };
  /** A deploy whose build contains the commit `sha`: its comments go Live. */
  const deploy = (sha: string) => reportBuild(ctx, admin, project.key, { sha: commit(), containsCommitShas: [sha] });

  // A fix by a developer, Live two days on, verified by the client who wrote it.
  at(0, 10);
  const blurry = await write(client, 'The hero image is blurry on retina screens.');
  at(1, 15);
  const blurryFix = await apply(developer, blurry);
  at(2, 11);
  await deploy(blurryFix);
  at(2, 16);
  await verifyComment(ctx, client, blurry, { ok: true });

  // A fix by the agent, Live the next day, verified by the admin who wrote it.
  at(3, 9);
  const footer = await write(admin, 'Footer links overlap on a phone.');
  at(4, 10);
  const footerFix = await apply(agent, footer);
  at(5, 9);
  await deploy(footerFix);
  at(6, 14);
  await verifyComment(ctx, admin, footer, { ok: true });

  // Sent back once: the client says it is not fixed, the developer fixes it again.
  at(7, 11);
  const pay = await write(client, 'The checkout button says “Submit”: it should say “Pay now”.');
  at(7, 14);
  await triage(pay, 'high', 'Copy');
  await assignComment(ctx, admin, pay, cast.developer.id);
  at(8, 10);
  await apply(developer, pay);
  at(9, 9);
  await verifyComment(ctx, client, pay, { ok: false, note: 'Still “Submit” on the confirmation step.' });
  at(9, 15);
  await addReply(ctx, developer, pay, `Missed that step: fixed there too. <@${cast.client.id}> one more look?`);
  const payFix = await apply(developer, pay);
  at(10, 9);
  await deploy(payFix);
  at(11, 10);
  await verifyComment(ctx, client, pay, { ok: true });

  // One that waited long: written early, fixed by the agent nine days later, Live, not verified yet.
  at(12, 10);
  const label = await write(admin, 'The newsletter field has no label: screen readers say only “edit text”.');
  at(12, 11);
  await triage(label, 'medium', 'Accessibility', 'Bug');
  at(15, 14);
  const carousel = await write(client, 'The testimonials carousel skips a slide.');
  at(16, 11);
  const carouselFix = await apply(developer, carousel);
  at(17, 9);
  await deploy(carouselFix);
  at(21, 15);
  await claimComment(ctx, agent, label);
  at(21, 16);
  const labelFix = await apply(agent, label);
  at(22, 9);
  await deploy(labelFix);

  // Still open: something to triage in the console and to see pinned on the demo page.
  at(23, 10);
  const vat = await write(client, 'Could the page say whether prices include VAT?');
  at(23, 11);
  await triage(vat, 'low', 'Question');
  at(24, 9);
  const wraps = await write(admin, 'The Team price wraps onto two lines on a phone.', TEAM_PRICE);
  await triage(wraps, 'urgent', 'Bug');
  await claimComment(ctx, agent, wraps);
}
