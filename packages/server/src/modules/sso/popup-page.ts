// The single sign-on popup's last page: it hands the answer after '#' to the page that opened it
// (its origin checked at the start and written by the server) and closes; if it stays open, it
// says so, in the language the person asks for (see http/page-language.ts). Its script is a
// file: the pages' Content-Security-Policy allows no inline script. The provider's reason for a
// refusal is told as the server words it.
import type { Locale, Translation, Translator } from '@svc/contract/i18n';
import { htmlText as html } from '../../http/page-language.js';

export const POPUP_PAGE = '/sso/done';

export const english = {
  title: 'Signing in…',
  said: 'Signing in… This window closes by itself; if it stays, close it and go back to the page.',
  failed: 'Single sign-on did not work:',
};

export const translations: Record<Exclude<Locale, 'en'>, Translation<typeof english>> = {
  de: {
    title: 'Anmeldung…',
    said: 'Anmeldung… Dieses Fenster schließt sich von selbst; falls nicht, schließen Sie es und kehren Sie zur Seite zurück.',
    failed: 'Single Sign-on hat nicht funktioniert:',
  },
  fr: {
    title: 'Connexion…',
    said: 'Connexion… Cette fenêtre se ferme d’elle-même ; si elle reste ouverte, fermez-la et revenez à la page.',
    failed: 'L’authentification unique n’a pas fonctionné :',
  },
  es: {
    title: 'Iniciando sesión…',
    said: 'Iniciando sesión… Esta ventana se cierra sola; si sigue abierta, ciérrala y vuelve a la página.',
    failed: 'El inicio de sesión único no funcionó:',
  },
  'pt-BR': {
    title: 'Entrando…',
    said: 'Entrando… Esta janela se fecha sozinha; se continuar aberta, feche-a e volte para a página.',
    failed: 'O login único não funcionou:',
  },
  it: {
    title: 'Accesso in corso…',
    said: 'Accesso in corso… Questa finestra si chiude da sola; se resta aperta, chiudila e torna alla pagina.',
    failed: 'L’accesso unico non ha funzionato:',
  },
  nl: {
    title: 'Bezig met inloggen…',
    said: 'Bezig met inloggen… Dit venster sluit vanzelf; blijft het open, sluit het dan en ga terug naar de pagina.',
    failed: 'Single sign-on is niet gelukt:',
  },
  ja: {
    title: 'サインインしています…',
    said: 'サインインしています… このウィンドウは自動的に閉じます。閉じない場合は、閉じて元のページに戻ってください。',
    failed: 'シングルサインオンに失敗しました：',
  },
  'zh-CN': {
    title: '正在登录…',
    said: '正在登录… 此窗口会自动关闭；如果没有关闭，请手动关闭并返回原页面。',
    failed: '单点登录失败：',
  },
  ar: {
    title: 'جارٍ تسجيل الدخول…',
    said: 'جارٍ تسجيل الدخول… تُغلق هذه النافذة من تلقاء نفسها؛ إن بقيت مفتوحة فأغلقها وعُد إلى الصفحة.',
    failed: 'لم ينجح الدخول الموحّد:',
  },
};

export const popupPage = ({ locale, dir, t }: Translator<typeof english>) => `<!doctype html>
<html lang="${locale}" dir="${dir}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${html(t('title'))}</title></head>
<body style="font-family:system-ui,sans-serif;padding:24px">
<p id="said" data-failed="${html(t('failed'))}">${html(t('said'))}</p>
<script src="${POPUP_PAGE}.js"></script>
</body>
</html>
`;

export const POPUP_SCRIPT = `(() => {
  const answer = new URLSearchParams(location.hash.slice(1));
  history.replaceState(null, '', location.pathname);
  const to = answer.get('to');
  if (window.opener && to) {
    window.opener.postMessage({ type: 'svc-sso', code: answer.get('sso_code'), error: answer.get('sso_error') }, to);
    window.close();
  }
  const said = document.getElementById('said');
  if (answer.get('sso_error')) said.textContent = said.dataset.failed + ' ' + answer.get('sso_error');
})();
`;
