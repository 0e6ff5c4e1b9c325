// What the panel asks the server once per person signed in and keeps: the workspace's labels
// (for the labels menu), the project's people (for mentions). A part of the Store that comes
// with the panel's chunk (see `Store.withPanelParts`).
import type { Label, MentionablePerson } from '@svc/contract';
import type { Announce } from './changes.js';
import type { Session } from './session.js';

/** What was asked for one person (`user`): asked anew for another. */
interface Asked {
  user: string;
  /** The workspace's labels: null while they are asked. */
  labels?: readonly Label[] | null;
  people?: Promise<MentionablePerson[]>;
}

export class Lists {
  private asked: Asked = { user: '' };

  constructor(
    private readonly session: Session,
    private readonly projectKey: string,
    private readonly announce: Announce,
  ) {}

  /** What was asked for the person signed in now. */
  private askedNow(): Asked {
    const user = this.session.user?.id ?? '';
    if (this.asked.user !== user) this.asked = { user };
    return this.asked;
  }

  /** The workspace's labels, asked when first needed: null until they arrive (announced then). */
  labels(): readonly Label[] | null {
    const asked = this.askedNow();
    if (asked.labels === undefined) {
      asked.labels = null;
      void this.session.api.call('GET /api/workspace/labels', {}).then(
        (answer) => {
          asked.labels = answer.ok ? answer.data.items : [];
          if (this.asked === asked) this.announce('view');
        },
        // Unreachable: asked again when next needed.
        () => {
          asked.labels = undefined;
        },
      );
    }
    return asked.labels;
  }

  /** Who the project's comments may mention, asked when first needed (again after a refusal). */
  people(): Promise<MentionablePerson[]> {
    const asked = this.askedNow();
    if (!asked.people) {
      const people = this.session.api
        .call('GET /api/projects/{key}/people', { params: { key: this.projectKey } })
        .then((answer) => (answer.ok ? answer.data.items : Promise.reject(answer.status)));
      // Refused or unreachable: asked again at the next @.
      people.catch(() => {
        if (asked.people === people) asked.people = undefined;
      });
      asked.people = people;
    }
    return asked.people;
  }
}
