// The team (invite, roles, removal, password reset links; agents are listed with it and managed
// under Agents), pending invitations, and client links. A link is shown once, with a copy
// button: nothing is e-mailed.
import { useState } from 'preact/hooks';
import { t } from '../../i18n.js';
import { may } from '../../session.js';
import { PageTitle } from '../../ui.js';
import { SingleSignOnSettings } from '../sso.js';
import { TwoFactorRule } from '../two-factor.js';
import { ClientLinks } from './client-links.js';
import { Invitations } from './invitations.js';
import { type ShownLink, ShownLinkDialog } from './shown-link.js';
import { Team } from './team.js';

export function People() {
  const [link, setLink] = useState<ShownLink | null>(null);
  return (
    <>
      <PageTitle>{t('nav.people')}</PageTitle>
      <Team onLink={setLink} />
      {may('manageMembers') ? <Invitations onLink={setLink} /> : null}
      <ClientLinks onLink={setLink} />
      {may('manageSecurity') ? <TwoFactorRule /> : null}
      {may('manageSecurity') ? <SingleSignOnSettings /> : null}
      <ShownLinkDialog link={link} onClose={() => setLink(null)} />
    </>
  );
}
