// Every language of the widget, carried in the content script (an extension loads no code from
// elsewhere): what `window.__svcLocales` holds once each language's chunk has run.
import { type Messages, PSEUDO_LOCALE, pseudoMessages } from '@svc/contract/i18n';
import { messages as arShared } from '@svc/contract/locales/ar';
import { messages as deShared } from '@svc/contract/locales/de';
import { en } from '@svc/contract/locales/en';
import { messages as esShared } from '@svc/contract/locales/es';
import { messages as frShared } from '@svc/contract/locales/fr';
import { messages as itShared } from '@svc/contract/locales/it';
import { messages as jaShared } from '@svc/contract/locales/ja';
import { messages as nlShared } from '@svc/contract/locales/nl';
import { messages as ptBRShared } from '@svc/contract/locales/pt-BR';
import { messages as zhCNShared } from '@svc/contract/locales/zh-CN';
import { messages as ar } from '../../widget/src/locales/ar.js';
import { messages as de } from '../../widget/src/locales/de.js';
import { enFirstLoad, enPanel } from '../../widget/src/locales/en.js';
import { messages as es } from '../../widget/src/locales/es.js';
import { messages as fr } from '../../widget/src/locales/fr.js';
import { messages as it } from '../../widget/src/locales/it.js';
import { messages as ja } from '../../widget/src/locales/ja.js';
import { messages as nl } from '../../widget/src/locales/nl.js';
import { messages as ptBR } from '../../widget/src/locales/pt-BR.js';
import { messages as zhCN } from '../../widget/src/locales/zh-CN.js';

export const carriedLocales: Record<string, Messages> = {
  de: { ...deShared, ...de },
  fr: { ...frShared, ...fr },
  es: { ...esShared, ...es },
  'pt-BR': { ...ptBRShared, ...ptBR },
  it: { ...itShared, ...it },
  nl: { ...nlShared, ...nl },
  ja: { ...jaShared, ...ja },
  'zh-CN': { ...zhCNShared, ...zhCN },
  ar: { ...arShared, ...ar },
  [PSEUDO_LOCALE]: pseudoMessages({ ...en, ...enFirstLoad, ...enPanel }),
};
