// The few WebExtension APIs the extension calls, typed here (Chromium and Firefox both answer
// them under `chrome`, with promises, in Manifest V3).

export interface Tab {
  id?: number;
  windowId?: number;
  active?: boolean;
  url?: string;
}

export interface MessageSender {
  id?: string;
  tab?: Tab;
  frameId?: number;
  url?: string;
}

interface Event<Listener> {
  addListener(listener: Listener): void;
}

export interface Permissions {
  origins?: string[];
  permissions?: string[];
}

export interface RegisteredContentScript {
  id: string;
  matches: string[];
  js: string[];
  runAt?: 'document_start' | 'document_end' | 'document_idle';
  persistAcrossSessions?: boolean;
}

export interface Browser {
  runtime: {
    id: string;
    getURL(path: string): string;
    openOptionsPage(): Promise<void>;
    sendMessage<T>(message: unknown): Promise<T>;
    onMessage: Event<
      (message: unknown, sender: MessageSender, respond: (answer: unknown) => void) => boolean | undefined
    >;
    onInstalled: Event<() => void>;
    onStartup: Event<() => void>;
  };
  storage: {
    local: {
      get(keys: string[]): Promise<Record<string, unknown>>;
      set(items: Record<string, unknown>): Promise<void>;
      remove(keys: string[]): Promise<void>;
    };
    onChanged: Event<(changes: Record<string, { newValue?: unknown }>, area: string) => void>;
  };
  permissions: {
    contains(permissions: Permissions): Promise<boolean>;
    request(permissions: Permissions): Promise<boolean>;
    getAll(): Promise<Permissions>;
    onAdded: Event<(permissions: Permissions) => void>;
    onRemoved: Event<(permissions: Permissions) => void>;
  };
  scripting: {
    executeScript(injection: { target: { tabId: number; frameIds?: number[] }; files: string[] }): Promise<unknown>;
    registerContentScripts(scripts: RegisteredContentScript[]): Promise<void>;
    unregisterContentScripts(filter?: { ids: string[] }): Promise<void>;
    getRegisteredContentScripts(filter?: { ids: string[] }): Promise<RegisteredContentScript[]>;
  };
  tabs: {
    sendMessage<T>(tabId: number, message: unknown): Promise<T>;
    captureVisibleTab(windowId?: number, options?: { format: 'png' | 'jpeg' }): Promise<string>;
  };
  alarms: {
    create(name: string, info: { periodInMinutes: number }): Promise<void>;
    onAlarm: Event<(alarm: { name: string }) => void>;
  };
  action: {
    getBadgeText(details: { tabId?: number }): Promise<string>;
    onClicked: Event<(tab: Tab) => void>;
    setBadgeText(details: { text: string; tabId?: number }): Promise<void>;
    setBadgeBackgroundColor(details: { color: string }): Promise<void>;
    setTitle(details: { title: string }): Promise<void>;
  };
}

export const browser = (globalThis as unknown as { chrome: Browser }).chrome;
