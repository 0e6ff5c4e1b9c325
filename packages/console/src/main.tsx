import './styles.css';
import { effect } from '@preact/signals';
import { render } from 'preact';
import { badgePoller, setBadgeUser } from './badge.js';
import { speak, t } from './i18n.js';
import { currentPath, location, match, navigate } from './router.js';
import { AcceptInvite, CompleteReset, CreateWorkspace, SignIn } from './screens/sign-in.js';
import { loadMe, me, ready } from './session.js';
import { Shell } from './shell.js';

/** Pages anyone may open; every other page needs a session and sends to sign-in without one. */
const PUBLIC = ['/sign-in', '/sign-up', '/invite', '/reset'];

function App() {
  const path = currentPath();
  location.value;
  if (!ready.value)
    return (
      <p class="muted" role="status" style="padding:24px">
        {t('app.loading')}
      </p>
    );
  if (match('/invite', path)) return <AcceptInvite />;
  if (match('/reset', path)) return <CompleteReset />;
  if (match('/sign-up', path) && !me.value) return <CreateWorkspace />;
  if (!me.value) return <SignIn />;
  if (!me.value.can.useConsole) return <ClientNotice />;
  return <Shell path={path} />;
}

function ClientNotice() {
  return (
    <main class="narrow card stack">
      <h1>{t('client.title')}</h1>
      <p>{t('client.body')}</p>
    </main>
  );
}

// After sign-in, back where the user was headed; after sign-out, to the sign-in page.
let wanted = PUBLIC.includes(currentPath()) ? '/' : location.value;
// The language: the person's, the browser's, the workspace's (see i18n.ts), again whenever who is signed in changes.
effect(() => {
  const who = me.value;
  void speak([who?.user.locale, ...navigator.languages, who?.workspace.defaultLocale]);
});
effect(() => {
  const signedIn = me.value !== null;
  if (!ready.value) return;
  if (signedIn) {
    setBadgeUser(me.value?.user.id ?? '');
    badgePoller.start();
    if (currentPath() === '/sign-in' || currentPath() === '/sign-up')
      navigate(PUBLIC.includes(wanted) ? '/' : wanted, true);
  } else {
    badgePoller.stop();
    if (!PUBLIC.includes(currentPath())) {
      wanted = location.value;
      navigate('/sign-in', true);
    }
  }
});

void loadMe();
render(<App />, document.getElementById('app') as HTMLElement);
