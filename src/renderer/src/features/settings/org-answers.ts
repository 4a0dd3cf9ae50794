// The service's last answers about the organization, for this sign-in only. The spec has no
// operation that reads the notification address or the webhook's state back (rows 12 and 13
// only write), so what the app knows is what the service answered to a change made here.
import { create } from 'zustand';
import type { Organization, Webhook } from '../../../../shared/service/index.ts';
import { api } from '../../api.ts';

export interface WebhookAnswer {
  webhook: Webhook;
  at: string;
}

interface OrgAnswersState {
  organization: Organization | null;
  webhook: WebhookAnswer | null;
  setOrganization(organization: Organization): void;
  setWebhook(webhook: Webhook): void;
}

export const useOrgAnswers = create<OrgAnswersState>((set) => ({
  organization: null,
  webhook: null,
  setOrganization(organization) {
    set({ organization });
  },
  setWebhook(webhook) {
    set({ webhook: { webhook, at: new Date().toISOString() } });
  },
}));

// Another sign-in may be another organization: forget what the last one was told.
api.on('session:changed', (session) => {
  if (!session.signedIn) useOrgAnswers.setState({ organization: null, webhook: null });
});
