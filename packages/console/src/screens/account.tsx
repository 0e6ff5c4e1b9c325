// The signed-in person: who they are, their password, two-factor sign-in, and their sessions.
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { me } from '../session.js';
import { Field, FormError, Loading, PageTitle, TableHead, Time, useAction, useLoad } from '../ui.js';
import { TwoFactorSection } from './two-factor.js';

export function Account() {
  const user = me.value?.user;
  const sessions = useLoad(() => api.call('GET /api/me/sessions', {}), []);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [done, setDone] = useState('');
  const password = useAction();
  const others = useAction();
  return (
    <>
      <PageTitle>Account</PageTitle>
      <div class="card">
        <dl class="facts">
          <dt>Name</dt>
          <dd>{user?.name}</dd>
          <dt>E-mail</dt>
          <dd>{user?.email}</dd>
          <dt>Role</dt>
          <dd>{user?.role}</dd>
          <dt>Workspace</dt>
          <dd>{me.value?.workspace.name}</dd>
        </dl>
      </div>
      <h2>Password</h2>
      <form
        class="card"
        onSubmit={async (event) => {
          event.preventDefault();
          const answer = await password.run(() =>
            api.call('POST /api/me/password', { body: { currentPassword: current, newPassword: next } }),
          );
          if (answer) {
            setCurrent('');
            setNext('');
            setDone(`Password changed; ${answer.data.ended} other session${answer.data.ended === 1 ? '' : 's'} ended.`);
            sessions.reload();
          }
        }}
      >
        <Field
          label="Current password"
          type="password"
          autocomplete="current-password"
          required
          value={current}
          onValue={setCurrent}
        />
        <Field
          label="New password"
          hint="At least 10 characters, not a commonly used password."
          type="password"
          autocomplete="new-password"
          required
          minLength={10}
          value={next}
          onValue={setNext}
        />
        <FormError message={password.error} />
        {done ? (
          <p role="status" class="small">
            {done}
          </p>
        ) : null}
        <button class="primary" type="submit" disabled={password.pending}>
          Change password
        </button>
      </form>
      <TwoFactorSection />
      <h2>Sessions</h2>
      {sessions.data ? null : <Loading error={sessions.error} />}
      {sessions.data ? (
        <div class="table-wrap">
          <table>
            <TableHead columns={['Browser or client', 'Last used', ['Ends', 'wide']]} />
            <tbody>
              {sessions.data.items.map((s) => (
                <tr key={s.id}>
                  <td class="wrap small">
                    {s.userAgent ?? 'Unknown client'}
                    {s.current ? <strong> (this one)</strong> : null}
                  </td>
                  <td>
                    <Time iso={s.lastSeenAt} />
                  </td>
                  <td class="hide-phone">
                    <Time iso={s.expiresAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <FormError message={others.error} />
      <p>
        <button
          type="button"
          disabled={others.pending || (sessions.data?.items.length ?? 0) < 2}
          onClick={async () => {
            await others.run(() => api.call('POST /api/me/sessions/end-others', {}));
            sessions.reload();
          }}
        >
          Sign out everywhere else
        </button>
      </p>
    </>
  );
}
