import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import { systemClock } from './clock.js';
import { type DatabaseConfig, loadConfig } from './config.js';
import { openDatabase } from './db/dialect/index.js';
import { migrateToLatest } from './db/migrate.js';
import { inTransaction } from './db/transaction.js';
import { AppError } from './errors.js';
import { rateRules } from './limits/rules.js';
import { issueApiKey } from './modules/api-keys/service.js';
import { recordAudit } from './modules/audit/audit.js';
import * as accounts from './modules/auth/service.js';
import { importExport } from './modules/export/import.js';
import { ImportError } from './modules/export/import-error.js';
import { listDomains, markProven } from './modules/sso/domains.js';
import { listStorage, parseSize, setStorageQuota, sizeText } from './modules/storage/quota.js';
import { resealSecrets, resetOf } from './modules/two-factor/service.js';
import { openSecretBox } from './secrets.js';

const USAGE = `Usage: npm run admin -- <command> [options]

Runs against the database the server is configured with (DATABASE_URL or SVC_DATA_DIR).

  create-admin --email <e-mail> --name <name> [--workspace <name>]
      A new workspace and its first admin, with a generated password (printed once).
      The way in on a server started with SVC_ALLOW_SIGNUP=false and SVC_DEMO=false.
  reset-password <e-mail>
      A new generated password for that user (printed once); all their sessions end.
  create-api-key <e-mail> [--name <name>]
      A new API key of that user (printed once).
  reset-two-factor <e-mail>
      Removes that user's second factor (a lost phone, no recovery code left): they sign
      in with their password, and set up a new app if their workspace requires one.
  prove-domain <domain> --workspace <workspace id>
      Proves an e-mail domain of that workspace's single sign-on without its DNS record (a
      closed network, an internal DNS the server cannot ask): the domain then routes sign-ins
      to the workspace. The workspace must list it first; public mail domains are refused.
  storage [--workspace <workspace id>]
      What each workspace stores of uploads (images and screenshots) against its quota, the
      fullest first; or that workspace's alone.
  set-storage-quota <size> --workspace <workspace id>
      Gives that workspace a storage quota of its own, such as 500MB or 20GB (binary units:
      1 GB is 1024 MB), or "default": the server's (SVC_STORAGE_QUOTA_MB) again. Uploads that
      would take it past its quota are refused (413); what it stores already stays.
  reseal-secrets
      After a key rotation (SVC_SECRET_KEY new, the old one in SVC_SECRET_KEY_PREVIOUS):
      encrypts every stored secret with the new key, so the old one can be dropped.
  import <file> [--screenshots <zip>]
      Brings in a JSON Lines export (svc-cli export --all, GET /api/workspace/export) with
      the ids it had: its workspace, projects, people, comments, replies and timelines. The
      whole file is checked first; a file that names a workspace already here, an id of
      another workspace, or a person or project it does not list, is refused and nothing is
      written. Running the same file again adds nothing. People come without passwords or
      links: an admin makes them reset links and rotates client links.
      --screenshots: the same workspace's zip of screenshots, images and replays (svc-cli
      export --screenshots), checked with the file (each of a comment the file holds, as
      its upload would be, within the storage quota) and written with its comments.
  backup <file>
      A consistent copy of the SQLite database into <file> (which must not exist), taken
      while the server runs (SQLite's online backup), then checked. On PostgreSQL, use
      pg_dump (see the README, "Backups and upgrades").
  help
      This text.
`;

/**
 * The admin command's one rule for exit codes: a mistake in how it was called (an unknown
 * command, an unknown flag, a missing argument) exits 2 with the usage text; an operation
 * refused or failed (an import refused, a backup that cannot be written, a user not found)
 * exits 1 with its message alone.
 */
class UsageError extends Error {}
/** An operation refused or failed: exit 1 with its message. */
class Refused extends Error {}

const generatedPassword = () => randomBytes(15).toString('base64url');

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      workspace: { type: 'string' },
      screenshots: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, target] = positionals;
  if (!command || command === 'help' || values.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (
    ![
      'create-admin',
      'reset-password',
      'create-api-key',
      'reset-two-factor',
      'prove-domain',
      'storage',
      'set-storage-quota',
      'reseal-secrets',
      'import',
      'backup',
    ].includes(command)
  ) {
    throw new UsageError(`Unknown command "${command}".`);
  }
  const loaded = loadConfig(process.env);
  if (!loaded.ok)
    throw new Refused(`Configuration is not valid:\n${loaded.problems.map((p) => `  - ${p}`).join('\n')}`);
  const { config } = loaded;
  if (command === 'backup') return backup(config.database, target);
  const database = openDatabase(config.database);
  try {
    await database.withStartupLock(async () => migrateToLatest(database.db, await database.currentSchema()));
    const deps = { db: database.db, database, sessions: config.sessions, rules: rateRules(config), clock: systemClock };
    const userByEmail = async () => {
      if (!target) throw new UsageError(`${command} needs the user's e-mail.`);
      const user = await accounts.findUserByEmail(database.db, target);
      if (!user) throw new AppError('not_found', `No user has the e-mail ${target}.`);
      return user;
    };

    if (command === 'import') {
      if (!target) throw new UsageError('import needs the export file, e.g. import ./workspace-comments.jsonl');
      const here = (name: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), name);
      const file = here(target);
      const zip = values.screenshots === undefined ? undefined : here(values.screenshots);
      for (const named of [file, zip])
        if (named && !fs.existsSync(named)) throw new Refused(`There is no file ${named}.`);
      process.stderr.write(`Importing ${file}${zip ? ` with ${zip}` : ''}…\n`);
      const said = {
        checked: 'Checking: %d comments read',
        pictures: 'Checking: %d files of the zip read',
        written: 'Importing: %d comments written',
      };
      const report = await importExport(
        database.db,
        () => fs.createReadStream(file),
        (phase, count) => process.stderr.write(`${said[phase].replace('%d', String(count))}\n`),
        zip ? { pictures: { zip, rules: deps.rules } } : {},
      ).catch((error: Error) => {
        throw error instanceof ImportError ? new Refused(`${file}: ${error.message}; nothing was imported.`) : error;
      });
      const { added, present } = report;
      process.stdout.write(
        `Workspace "${report.workspace.name}" (${report.workspace.id}): added ${added.projects} projects, ${added.labels} labels, ${added.users} people, ${added.comments} comments, ${added.replies} replies, ${added.events} timeline events; already here: ${present.projects} projects, ${present.labels} labels, ${present.users} people, ${present.comments} comments.\n`,
      );
      if (report.pictures) {
        const { added: pictures, present: already } = report.pictures;
        process.stdout.write(
          `From the zip: added ${pictures.screenshots} screenshots, ${pictures.images} images, ${pictures.replays} replays; already here: ${already}.\n`,
        );
      }
      if (report.withoutEmail.length) {
        process.stdout.write(
          `Imported without their e-mail (another account here has it): ${report.withoutEmail.join(', ')}\n`,
        );
      }
    } else if (command === 'create-admin') {
      if (!values.email || !values.name) throw new UsageError('create-admin needs --email and --name.');
      const password = generatedPassword();
      const { user, workspace } = await accounts.createWorkspace(
        deps,
        { workspaceName: values.workspace ?? values.name, name: values.name, email: values.email, password },
        async () => null,
      );
      process.stdout.write(
        `Admin ${user.email} of workspace "${workspace.name}" created.\nPassword (shown once): ${password}\n`,
      );
    } else if (command === 'reset-password') {
      const user = await userByEmail();
      if (user.role === 'client') throw new Refused(`${target} is a quick-access account: it has no password.`);
      const password = generatedPassword();
      const ended = await accounts.resetPassword(deps, user, password);
      process.stdout.write(`New password of ${user.email} (shown once): ${password}\n${ended} session(s) ended.\n`);
      if (ended > 0 && database.name === 'sqlite') {
        process.stdout.write('A running server may still accept those sessions until it restarts.\n');
      }
    } else if (command === 'reset-two-factor') {
      const user = await userByEmail();
      await resetOf(
        deps,
        user,
        { workspaceId: user.workspace_id, actor: null, address: null },
        'by the operator (admin command)',
      );
      process.stdout.write(`Two-factor sign-in of ${user.email} removed: their password alone signs them in now.\n`);
    } else if (command === 'prove-domain') {
      if (!target || !values.workspace) {
        throw new UsageError(
          'prove-domain needs the domain and --workspace <workspace id>, e.g. prove-domain acme.com --workspace ws_…',
        );
      }
      const domain = target.trim().toLowerCase();
      const workspace = await database.db
        .selectFrom('workspaces')
        .select(['id', 'name'])
        .where('id', '=', values.workspace)
        .executeTakeFirst();
      if (!workspace) throw new AppError('not_found', `No workspace has the id ${values.workspace}.`);
      const listed = (await listDomains(database.db, workspace.id)).some((row) => row.domain === domain);
      if (!listed) {
        throw new AppError(
          'not_found',
          `Workspace "${workspace.name}" does not list ${domain} in its single sign-on: an admin adds it first (People, Single sign-on).`,
        );
      }
      const { newly } = await inTransaction(database.db, async (trx) => {
        const proven = await markProven(
          trx,
          workspace.id,
          domain,
          'operator',
          new Date().toISOString(),
          database.isUniqueViolation,
        );
        if (proven.newly) {
          await recordAudit(
            trx,
            { workspaceId: workspace.id, actor: null, address: null },
            'security_changed',
            null,
            `e-mail domain ${domain} proven by the operator (admin command)`,
          );
        }
        return proven;
      });
      process.stdout.write(
        newly
          ? `${domain} is proven for workspace "${workspace.name}": it routes sign-ins there now.\n`
          : `${domain} was proven for workspace "${workspace.name}" already.\n`,
      );
    } else if (command === 'storage' || command === 'set-storage-quota') {
      const defaultBytes = rateRules(config).storageQuotaBytes;
      const line = (w: { id: string; name: string; usedBytes: number; quotaBytes: number; ownQuota: boolean }) =>
        `${w.id} "${w.name}": ${sizeText(w.usedBytes)} of ${sizeText(w.quotaBytes)} (${w.quotaBytes ? Math.floor((w.usedBytes / w.quotaBytes) * 100) : 100}%), ${w.ownQuota ? 'its own quota' : "the server's quota"}\n`;
      const find = async (id: string) => {
        const found = (await listStorage(database.db, defaultBytes)).find((w) => w.id === id);
        if (!found) throw new AppError('not_found', `No workspace has the id ${id}.`);
        return found;
      };
      if (command === 'storage') {
        const shown = values.workspace ? [await find(values.workspace)] : await listStorage(database.db, defaultBytes);
        for (const workspace of shown) process.stdout.write(line(workspace));
      } else {
        const bytes = target === 'default' ? null : parseSize(target ?? '');
        if (!values.workspace || !target || (bytes === null && target !== 'default')) {
          throw new UsageError(
            'set-storage-quota needs a size (such as 500MB or 20GB, or "default") and --workspace <workspace id>, e.g. set-storage-quota 20GB --workspace ws_…',
          );
        }
        if (!(await setStorageQuota(database.db, values.workspace, bytes))) {
          throw new AppError('not_found', `No workspace has the id ${values.workspace}.`);
        }
        process.stdout.write(`Storage quota set. ${line(await find(values.workspace))}`);
      }
    } else if (command === 'reseal-secrets') {
      const secrets = openSecretBox(config, (message) => process.stderr.write(`${message}\n`));
      const count = await resealSecrets({ db: database.db, secrets });
      process.stdout.write(
        `${count} secret holder(s) (accounts and the server's own keys) were sealed with an older key; all are sealed with the current one now.\n`,
      );
    } else {
      const user = await userByEmail();
      if (user.role === 'client') throw new Refused(`${target} is a quick-access account: it cannot hold API keys.`);
      // The operator's action: nobody of the workspace did it, and no address applies.
      const operator = { workspaceId: user.workspace_id, actor: null, address: null };
      const key = await issueApiKey(deps, user, values.name ?? 'admin command', operator);
      process.stdout.write(`API key "${key.name}" of ${user.email} (shown once): ${key.key}\n`);
    }
  } finally {
    await database.close();
  }
}

/**
 * SQLite's online backup: pages are copied in steps while other connections go on writing
 * (a step that sees a write restarts from a consistent state), so the copy is the database
 * as of one moment, every committed transaction of that moment in it.
 */
async function backup(database: DatabaseConfig, given: string | undefined): Promise<void> {
  if (database.dialect !== 'sqlite') {
    throw new Refused(
      'The database is PostgreSQL: back it up with pg_dump, e.g. pg_dump --format=custom --file=svc.dump "$DATABASE_URL".',
    );
  }
  if (!given) throw new UsageError('backup needs the file to write, e.g. backup ./svc-backup.db');
  // npm runs the command from the project's folder; a relative name means where it was typed.
  const target = path.resolve(process.env.INIT_CWD ?? process.cwd(), given);
  if (fs.existsSync(target)) throw new Refused(`${target} exists already: choose a new file name.`);
  if (!fs.existsSync(database.file)) throw new Error(`There is no database at ${database.file} (SVC_DATA_DIR).`);
  const source = new SQLite(database.file, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    process.stderr.write(`Backing up ${database.file} to ${target}…\n`);
    let shown = -1;
    let lastRemaining = Number.POSITIVE_INFINITY;
    await source.backup(target, {
      progress: ({ totalPages, remainingPages }) => {
        const percent = Math.floor(((totalPages - remainingPages) / Math.max(totalPages, 1)) * 100);
        if (percent >= shown + 10) {
          shown = percent;
          process.stderr.write(`Backing up: ${percent}% of ${totalPages} pages\n`);
        }
        // A write between steps restarts the copy; then the rest goes in one step, which a
        // write cannot interrupt, so that a busy server cannot keep the backup from ending.
        const restarted = remainingPages > lastRemaining;
        lastRemaining = remainingPages;
        return restarted ? remainingPages : 1000;
      },
    });
  } finally {
    source.close();
  }
  // The copy has every page, free ones too: those a release before secure_delete freed still
  // hold what was deleted then. Rewritten with its live pages only, it holds nothing deleted.
  const rewritten = new SQLite(target, { fileMustExist: true });
  try {
    rewritten.exec('vacuum');
  } finally {
    rewritten.close();
  }
  const copy = new SQLite(target, { readonly: true, fileMustExist: true });
  try {
    const check = copy.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new Error(`The copy at ${target} failed its integrity check: ${String(check)}`);
    const comments = copy.prepare('select count(*) as n from comments').get() as { n: number };
    const bytes = fs.statSync(target).size;
    process.stdout.write(
      `Backed up ${database.file} to ${target}: ${(bytes / 1024 / 1024).toFixed(1)} MB, ${comments.n} comments, integrity ok.\n`,
    );
  } finally {
    copy.close();
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof UsageError || (error instanceof TypeError && 'code' in error)) {
      process.stderr.write(`${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    const fields = error instanceof AppError ? (error.errors ?? []).map((e) => `${e.path} ${e.message}`) : [];
    const message = error instanceof Error ? error.message : String(error);
    // A field's refusal often is the message itself: said once.
    const detail = fields.length && fields.join('; ') !== message ? `${message} (${fields.join('; ')})` : message;
    process.stderr.write(`${detail}\n`);
    process.exit(1);
  },
);
