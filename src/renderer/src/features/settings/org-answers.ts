// The service's last answers about the organization, for this sign-in only: the organization
// as read (`org:get`, the notification address in force) or as a change made here returned it,
// and the webhook as the service answered a change (it has no operation that reads it back).
import { create } from 'zustand';
import type { Organization, Webhook } from '../../../../shared/service/index.ts';
import type { SessionInfo } from '../../../../shared/ipc.ts';

export interface WebhookAnswer {
  webhook: Webhook;
  at: string;
  /** The address registered with it, when the answer was to a registration made here. */
  url?: string;
}

interface OrgAnswersState {
  organization: Organization | null;
  /** Whether the organization shown was read from the service or returned by a change made here. */
  organizationFrom: 'read' | 'saved' | null;
  webhook: WebhookAnswer | null;
  setOrganization(organization: Organization, from?: 'read' | 'saved'): void;
  setWebhook(webhook: Webhook, url?: string): void;
}

export const useOrgAnswers = create<OrgAnswersState>((set) => ({
  organization: null,
  organizationFrom: null,
  webhook: null,
  setOrganization(organization, from = 'saved') {
    set({ organization, organizationFrom: from });
  },
  setWebhook(webhook, url) {
    set({ webhook: { webhook, at: new Date().toISOString(), ...(url ? { url } : {}) } });
  },
}));

/** Main's `session:changed`: another sign-in may be another organization, so what the last one was told goes. */
export function orgSessionChanged(session: SessionInfo): void {
  if (!session.signedIn) useOrgAnswers.setState({ organization: null, organizationFrom: null, webhook: null });
}
