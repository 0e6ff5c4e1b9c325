// The signed-in console: the top bar with its navigation and unread badge, and the page the
// address names.
import type { WorkspaceAbilities } from '@svc/contract';
import type { RefObject } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { unread } from './badge.js';
import { intlLocale, type MessageId, t, tx } from './i18n.js';
import { Lazy } from './loading.js';
import { Link, match } from './router.js';
import { Account } from './screens/account.js';
import { ApiKeys } from './screens/api-keys.js';
import { AuditLog } from './screens/audit.js';
import { ProjectBuilds } from './screens/builds.js';
import { CommentDetail } from './screens/comment/index.js';
import { Comments } from './screens/comments/index.js';
import { Inbox } from './screens/inbox.js';
import { Install } from './screens/install.js';
import { Labels } from './screens/labels.js';
import { MyWork } from './screens/my-work.js';
import { People } from './screens/people/index.js';
import { Projects } from './screens/projects/index.js';
import { may, me, signOut } from './session.js';

const NAV = [
  ['/', 'nav.inbox'],
  ['/mine', 'nav.myWork'],
  ['/comments', 'nav.comments'],
  ['/insights', 'nav.insights'],
  ['/projects', 'nav.projects'],
  ['/people', 'nav.people'],
  ['/agents', 'nav.agents'],
  ['/labels', 'nav.labels'],
  ['/api-keys', 'nav.apiKeys'],
  ['/audit', 'nav.audit'],
  ['/account', 'nav.account'],
] as const satisfies readonly (readonly [string, MessageId])[];

/** Pages shown only to those whose abilities let them use them (the server refuses the others anyway). */
const SHOWN_TO: Partial<Record<string, keyof WorkspaceAbilities>> = {
  '/labels': 'manageLabels',
  '/audit': 'readAudit',
};

// Pages few open, each a chunk of its own loaded when first opened.
const loadInsights = () => import('./screens/insights/insights.js').then((module) => module.Insights);
const loadAgents = () => import('./screens/agents.js').then((module) => module.Agents);

function page(path: string) {
  if (path === '/') return <Inbox />;
  if (path === '/mine') return <MyWork />;
  if (path === '/comments') return <Comments />;
  let params = match('/comments/:id', path);
  if (params) return <CommentDetail id={params.id ?? ''} />;
  if (path === '/insights') return <Lazy load={loadInsights} props={{}} />;
  if (path === '/projects') return <Projects />;
  params = match('/projects/:key/install', path);
  if (params) return <Install projectKey={params.key ?? ''} />;
  params = match('/projects/:key/builds', path);
  if (params) return <ProjectBuilds projectKey={params.key ?? ''} />;
  if (path === '/people') return <People />;
  if (path === '/agents') return <Lazy load={loadAgents} props={{}} />;
  if (path === '/labels') return <Labels />;
  if (path === '/api-keys') return <ApiKeys />;
  if (path === '/audit') return <AuditLog />;
  if (path === '/account') return <Account />;
  return (
    <div class="card">
      <h1>{t('notFound.title')}</h1>
      <p>{tx('notFound.body', { path: <code>{path}</code>, link: <Link href="/">{t('notFound.back')}</Link> })}</p>
    </div>
  );
}

/** The nav entry a path belongs to (a comment belongs to Comments, a project's pages to Projects). */
const section = (path: string) => NAV.find(([href]) => (href === '/' ? path === '/' : path.startsWith(href)))?.[0];

/** The amber count of unread notifications, said as such to screen readers. */
function UnreadBadge() {
  if (unread.value <= 0) return null;
  return (
    <span class="badge">
      {unread.value > 99 ? '99+' : unread.value}
      <span class="skip"> {t('nav.unread')}</span>
    </span>
  );
}

/** The widest window that is a phone's: the bar is compact there whatever its sections' names. */
const PHONE_MAX = 640;

/**
 * Whether the bar is compact: its sections a menu behind one button, on a phone or wherever
 * they would not fit in its row (a tablet, longer names). What the row needs is measured while
 * it is shown (its entries' extent, which does not stretch with the bar; who is signed in
 * counts for its shortest, as it is cut short first), and again when the names change (`names`:
 * the language).
 */
function useCompactBar(bar: RefObject<HTMLElement | null>, names: string) {
  const [compact, setCompact] = useState(() => window.innerWidth <= PHONE_MAX);
  const needed = useRef(0);
  useLayoutEffect(() => {
    needed.current = 0;
    setCompact(window.innerWidth <= PHONE_MAX);
  }, [names]);
  useLayoutEffect(() => {
    const fit = () => {
      const element = bar.current;
      const list = element?.querySelector('nav ul');
      if (!element || !list) return;
      if (!compact && list.children.length) {
        const boxes = [...list.children].map((item) => item.getBoundingClientRect());
        const row = Math.max(...boxes.map((box) => box.right)) - Math.min(...boxes.map((box) => box.left));
        // Who is signed in may be cut short (to its min-width, styles.css): the row needs the rest.
        const who = element.querySelector<HTMLElement>('.who');
        const spare = who ? who.offsetWidth - Number.parseFloat(getComputedStyle(who).minWidth) : 0;
        needed.current = element.scrollWidth - list.clientWidth - Math.max(0, spare) + row;
      }
      setCompact(window.innerWidth <= PHONE_MAX || element.clientWidth < needed.current);
    };
    fit();
    window.addEventListener('resize', fit);
    return () => window.removeEventListener('resize', fit);
  });
  return compact;
}

export function Shell({ path }: { path: string }) {
  const user = me.value?.user;
  const current = section(path);
  // On a phone the sections are a menu behind one button (a row of eleven would take three).
  // Choosing a section, a tap outside the bar, or Escape closes it.
  const bar = useRef<HTMLElement>(null);
  const compact = useCompactBar(bar, intlLocale());
  const [menuOpen, setMenuOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  useEffect(() => setMenuOpen(false), [path]);
  // Listening from the moment the menu is drawn open (a layout effect: before it is painted).
  useLayoutEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      toggle.current?.focus();
    };
    const onClick = (event: MouseEvent) => {
      const target = event.target as Element;
      if (target.closest('#console-menu a') || !target.closest('.topbar')) setMenuOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('click', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('click', onClick);
    };
  }, [menuOpen]);
  return (
    <>
      <a class="skip" href="#main">
        {t('nav.skip')}
      </a>
      <header
        ref={bar}
        class={['topbar', compact ? 'compact' : '', compact && menuOpen ? 'open' : ''].join(' ').trim()}
      >
        <Link class="brand" href="/">
          {t('nav.brand')}
        </Link>
        <button
          ref={toggle}
          type="button"
          class="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="console-menu"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          <span aria-hidden="true">☰</span>
          {t('nav.menu')}
          <UnreadBadge />
        </button>
        <div id="console-menu" class="menu">
          <nav aria-label={t('nav.label')}>
            <ul>
              {NAV.filter(([href]) => may(SHOWN_TO[href] ?? 'useConsole')).map(([href, label]) => (
                <li key={href}>
                  <Link href={href} aria-current={current === href ? 'page' : undefined}>
                    {t(label)}
                    {href === '/' ? <UnreadBadge /> : null}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <span class="who" title={user?.email ?? ''}>
            {t('nav.who', { name: user?.name ?? '', role: user?.role ?? '' })}
          </span>
          <button type="button" onClick={() => void signOut()}>
            {t('nav.signOut')}
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {page(path)}
      </main>
    </>
  );
}
