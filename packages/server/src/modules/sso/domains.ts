// A workspace's e-mail domains: the sign-in page finds its single sign-on by them, and people of
// them may join on first sign-in. Listing a domain proves nothing (anyone could list gmail.com or
// another team's), nor does a sign-in through the workspace's own provider (a workspace that
// runs one can assert any e-mail as verified): a domain routes sign-ins only once the workspace
// has proven it holds it, by a DNS TXT record the server checks, or by the operator's approval on
// a closed network. One workspace on a server proves a domain; public mail domains never.
import { randomBytes } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { createRequire } from 'node:module';
import { DOMAIN_PROOF_LABEL, DOMAIN_PROOF_PREFIX, type SsoDomain } from '@svc/contract';
import type { SsoDomainTable } from '../../db/account-tables.js';
import type { Db } from '../../db/schema.js';
import { conflict, invalidField, invalidState, notFound } from '../../errors.js';
import { newId } from '../../ids.js';

/** Public mail providers' domains (Gmail, Outlook, Yahoo, GMX, Proton… some 8,700): nobody's to claim. */
const PUBLIC_MAIL = new Set<string>(createRequire(import.meta.url)('email-providers/all.json'));

export const isPublicMailDomain = (domain: string) => PUBLIC_MAIL.has(domain);

/** Refuses public mail domains in a list of domains, naming the first. */
export function refusePublicMailDomains(domains: readonly string[], path: string) {
  const index = domains.findIndex(isPublicMailDomain);
  if (index >= 0) {
    throw invalidField(
      `${path}/${index}`,
      `is a public mail domain (${domains[index]}): anyone can have an address there, so it cannot route sign-ins to one workspace`,
    );
  }
}

type DomainRow = Pick<SsoDomainTable, 'domain' | 'token' | 'proven_at' | 'proven_by'>;

export const presentDomain = (row: DomainRow): SsoDomain => ({
  domain: row.domain,
  proven: row.proven_at !== null,
  provenAt: row.proven_at,
  provenBy: row.proven_by,
  record: { type: 'TXT', name: `${DOMAIN_PROOF_LABEL}.${row.domain}`, value: `${DOMAIN_PROOF_PREFIX}${row.token}` },
});

export const listDomains = (db: Db, workspaceId: string) =>
  db
    .selectFrom('sso_domains')
    .select(['domain', 'token', 'proven_at', 'proven_by'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('domain')
    .execute();

/** Makes the workspace's domains the ones listed: new ones get a token to prove them; dropped ones go, proof and all. */
export async function keepDomains(db: Db, workspaceId: string, domains: readonly string[], at: string) {
  const listed = new Set((await listDomains(db, workspaceId)).map((row) => row.domain));
  const dropped = [...listed].filter((domain) => !domains.includes(domain));
  if (dropped.length) {
    await db.deleteFrom('sso_domains').where('workspace_id', '=', workspaceId).where('domain', 'in', dropped).execute();
  }
  const added = domains.filter((domain) => !listed.has(domain));
  if (added.length) {
    await db
      .insertInto('sso_domains')
      .values(
        added.map((domain) => ({
          id: newId('dom'),
          workspace_id: workspaceId,
          domain,
          token: randomBytes(18).toString('base64url'),
          proven_at: null,
          proven_by: null,
          created_at: at,
        })),
      )
      .execute();
  }
}

/** The workspace that has proven `domain`, if one has. */
export async function provenBy(db: Db, domain: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('sso_domains')
    .select('workspace_id')
    .where('domain', '=', domain)
    .where('proven_at', 'is not', null)
    .executeTakeFirst();
  return row?.workspace_id;
}

async function findDomain(db: Db, workspaceId: string, domain: string) {
  const row = await db
    .selectFrom('sso_domains')
    .select(['id', 'domain', 'token', 'proven_at', 'proven_by'])
    .where('workspace_id', '=', workspaceId)
    .where('domain', '=', domain)
    .executeTakeFirst();
  if (!row) throw notFound('Domain');
  return row;
}

/**
 * Marks the workspace's domain proven (`by` the DNS record or the operator), and says whether it
 * was not before. Refused when another
 * workspace of the server proved it first (the unique index decides a race); `isUniqueViolation`
 * is the database's word for that.
 */
export async function markProven(
  db: Db,
  workspaceId: string,
  domain: string,
  by: 'dns' | 'operator',
  at: string,
  isUniqueViolation: (error: unknown) => boolean,
) {
  const row = await findDomain(db, workspaceId, domain);
  if (row.proven_at) return { domain: presentDomain(row), newly: false };
  if (isPublicMailDomain(domain)) throw invalidState(`${domain} is a public mail domain: it cannot be proven.`);
  const taken = await provenBy(db, domain);
  if (taken && taken !== workspaceId) throw provenElsewhere(domain);
  try {
    await db.updateTable('sso_domains').set({ proven_at: at, proven_by: by }).where('id', '=', row.id).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw provenElsewhere(domain);
    throw error;
  }
  return { domain: presentDomain({ ...row, proven_at: at, proven_by: by }), newly: true };
}

const provenElsewhere = (domain: string) =>
  conflict(`Another workspace on this server has proven ${domain}: ask the server's operator.`);

/** What a DNS lookup found, or why it found nothing. */
export type Lookup = { values: string[] } | { failure: string };

/** The TXT values at `name`, asked of `servers` (the system's when empty). */
export async function lookUpTxt(name: string, servers: readonly string[]): Promise<Lookup> {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  if (servers.length) resolver.setServers([...servers]);
  try {
    // A TXT record may be split into strings of 255 characters: its value is them joined.
    return { values: (await resolver.resolveTxt(name)).map((chunks) => chunks.join('')) };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') return { values: [] };
    return { failure: `the DNS servers did not answer (${code ?? (error as Error).message}): try again in a moment` };
  }
}

/** Checks the domain's TXT record for its token; the domain proven (and whether just now), or why not (409). */
export async function checkByDns(
  db: Db,
  workspaceId: string,
  domain: string,
  servers: readonly string[],
  at: string,
  isUniqueViolation: (error: unknown) => boolean,
) {
  const row = await findDomain(db, workspaceId, domain);
  if (row.proven_at) return { domain: presentDomain(row), newly: false };
  const { record } = presentDomain(row);
  const found = await lookUpTxt(record.name, servers);
  if ('failure' in found) throw invalidState(`${domain} was not checked: ${found.failure}.`);
  if (!found.values.includes(record.value)) {
    const seen = found.values.filter((value) => value.startsWith(DOMAIN_PROOF_PREFIX));
    throw invalidState(
      `${domain} is not proven yet: no TXT record at ${record.name} holds ${record.value}${seen.length ? ` (found: ${seen.join(', ')})` : ''}. DNS changes can take a while to show: check again later.`,
    );
  }
  return markProven(db, workspaceId, domain, 'dns', at, isUniqueViolation);
}
