/** The embeddable widget's entry point; it reads its configuration from the page. */
export interface WidgetConfig {
  apiBase: string;
  projectKey: string;
  notifyPollMs: number;
}

declare global {
  interface Window {
    __SVC_CONFIG__?: Partial<WidgetConfig>;
  }
}
