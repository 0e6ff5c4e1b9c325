// Signing in, accepting an invitation and completing a password reset: the pages for people
// without a session. Invitation and reset links carry their token after '#', which never
// leaves the browser.
import type { SecondFactorAsked } from '@svc/contract';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { Link, navigate } from '../router.js';
import { adoptSession, signedOutReason } from '../session.js';
import { Field, FormError, useAction, useLoad } from '../ui.js';
import { SingleSignOn } from './sso.js';
import { SecondFactorStep } from './two-factor.js';

function Frame({ title, children }: { title: string; children: preact.ComponentChildren }) {
  useEffect(() => {
    document.title = `${title} · Feedback`;
  }, [title]);
  return (
    <main class="narrow">
      <div class="card stack">
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}

export function SignIn() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [asked, setAsked] = useState<SecondFactorAsked | null>(null);
  const action = useAction();
  const server = useLoad(() => api.call('GET /api/server', {}), []);
  if (asked) {
    return (
      <Frame title="Two-factor sign-in">
        <SecondFactorStep
          asked={asked}
          onSession={adoptSession}
          onCancel={() => {
            setAsked(null);
            setPassword('');
          }}
        />
      </Frame>
    );
  }
  return (
    <Frame title="Sign in">
      {signedOutReason.value ? <p class="notice">{signedOutReason.value}</p> : null}
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          const answer = await action.run(() => api.call('POST /api/auth/login', { body: { email, password } }));
          if (!answer) return;
          if ('token' in answer.data) await adoptSession(answer.data.token);
          else setAsked(answer.data);
        }}
      >
        <Field label="E-mail" type="email" autocomplete="username" required value={email} onValue={setEmail} />
        <Field
          label="Password"
          type="password"
          autocomplete="current-password"
          required
          value={password}
          onValue={setPassword}
        />
        <FormError message={action.error} />
        <button class="primary" type="submit" disabled={action.pending}>
          {action.pending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <SingleSignOn email={email} />
      {server.data?.demo ? (
        <p class="notice small">
          This is a demo server: the demo admin's e-mail and password were printed where the server was started (the
          terminal running <code>npm start</code>). Try the widget on the <a href="/demo">demo page</a>.
        </p>
      ) : null}
      {server.data?.signup ? (
        <p>
          New here? <Link href="/sign-up">Create a workspace</Link> for your team.
        </p>
      ) : null}
      <p class="muted small">
        Got a link from a client invitation? Open it on the app: the feedback button signs you in.
      </p>
    </Frame>
  );
}

/** A new workspace and its first admin: open while the server's sign-up policy allows it. */
export function CreateWorkspace() {
  const [workspaceName, setWorkspaceName] = useState('');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();
  const server = useLoad(() => api.call('GET /api/server', {}), []);
  if (server.data && !server.data.signup) {
    return (
      <Frame title="Create a workspace">
        <p>
          Sign-up is closed on this server. Ask an admin of your team's workspace to invite you, or{' '}
          <Link href="/sign-in">sign in</Link>.
        </p>
      </Frame>
    );
  }
  return (
    <Frame title="Create a workspace">
      <p class="muted">You become its admin: you add projects and invite your team afterwards.</p>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          const answer = await action.run(() =>
            api.call('POST /api/signup', { body: { workspaceName, name, email, password } }),
          );
          if (answer) await startAtInbox(answer.data.token);
        }}
      >
        <Field
          label="Workspace name"
          hint="Your team or company, as your team will see it."
          required
          maxLength={100}
          autocomplete="organization"
          value={workspaceName}
          onValue={setWorkspaceName}
        />
        <Field label="Your name" required maxLength={100} autocomplete="name" value={name} onValue={setName} />
        <Field label="E-mail" type="email" required autocomplete="username" value={email} onValue={setEmail} />
        <NewPassword label="Password" value={password} onValue={setPassword} />
        <FormError message={action.error} />
        <button class="primary" type="submit" disabled={action.pending}>
          {action.pending ? 'Creating…' : 'Create workspace'}
        </button>
      </form>
      <p class="muted small">
        Already have an account? <Link href="/sign-in">Sign in</Link>.
      </p>
    </Frame>
  );
}

/** The token after '#' in the address; taken out of the address bar once read. */
function useFragmentToken(): string {
  const [token] = useState(() => window.location.hash.slice(1));
  useEffect(() => {
    if (window.location.hash) history.replaceState(null, '', window.location.pathname);
  }, []);
  return token;
}

/** Keeps the session a link gave and opens the inbox. */
async function startAtInbox(token: string): Promise<void> {
  await adoptSession(token);
  navigate('/', true);
}

/** A password being chosen, with the rule it must meet. */
function NewPassword(props: { label: string; value: string; onValue: (value: string) => void }) {
  return (
    <Field
      {...props}
      hint="At least 10 characters, not a commonly used password."
      type="password"
      required
      minLength={10}
      autocomplete="new-password"
    />
  );
}

export function AcceptInvite() {
  const token = useFragmentToken();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();
  if (!token) {
    return (
      <Frame title="Join the team">
        <p>This invitation link is incomplete. Open the whole link you were sent, or ask an admin for a new one.</p>
      </Frame>
    );
  }
  return (
    <Frame title="Join the team">
      <p class="muted">Choose the name your team sees and a password.</p>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          const answer = await action.run(() =>
            api.call('POST /api/invites/accept', { body: { token, name, password } }),
          );
          if (answer) await startAtInbox(answer.data.token);
        }}
      >
        <Field label="Your name" required maxLength={100} autocomplete="name" value={name} onValue={setName} />
        <NewPassword label="Password" value={password} onValue={setPassword} />
        <FormError message={action.error} />
        <button class="primary" type="submit" disabled={action.pending}>
          Join
        </button>
      </form>
    </Frame>
  );
}

export function CompleteReset() {
  const token = useFragmentToken();
  const [password, setPassword] = useState('');
  const action = useAction();
  if (!token) {
    return (
      <Frame title="Set a new password">
        <p>This reset link is incomplete. Open the whole link you were sent, or ask an admin for a new one.</p>
      </Frame>
    );
  }
  return (
    <Frame title="Set a new password">
      <p class="muted">Your other sessions end when you set it.</p>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          const answer = await action.run(() =>
            api.call('POST /api/password-reset/complete', { body: { token, password } }),
          );
          if (answer) await startAtInbox(answer.data.token);
        }}
      >
        <NewPassword label="New password" value={password} onValue={setPassword} />
        <FormError message={action.error} />
        <button class="primary" type="submit" disabled={action.pending}>
          Set password
        </button>
      </form>
    </Frame>
  );
}
