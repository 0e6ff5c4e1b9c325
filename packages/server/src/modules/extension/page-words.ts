// The extension's page in the ten languages of the console and the widget. Messages hold the
// page's markup (written here, never from a request); {server} and {version} come escaped. The
// browsers' own buttons and settings are named as each browser names them in that language.
import type { Locale, Translation } from '@svc/contract/i18n';

export const english = {
  title: 'Browser extension · feedback',
  heading: 'Review any site: the browser extension',
  notBuiltTitle: 'Not built on this server',
  notBuilt:
    'This server has no build of the extension to hand out. Whoever runs it builds it with <code>npm run build</code> (or <code>npm run build -w @svc/extension</code> alone) in the server’s checkout, then restarts the server.',
  intro:
    'Pin comments on any page you open, including pages that carry no script of ours (a client’s staging site, a page whose Content-Security-Policy forbids foreign scripts), with the same pins, panel and verify loop as the widget, on this server.',
  version:
    'Version {version}. The download is made for this server: it asks to reach {server} when installed, and its settings page starts with that address.',
  chromiumTitle: 'Chrome, Edge, Brave and other Chromium browsers',
  chromiumDownload: 'Download for Chromium browsers',
  chromium1:
    'Download {file} and unzip it into a folder you keep (the browser loads the extension from there, and forgets it if the folder goes).',
  chromium2:
    'Open <code>chrome://extensions</code> (<code>edge://extensions</code>, <code>brave://extensions</code>) and turn on <em>Developer mode</em>.',
  chromium3:
    'Press <em>Load unpacked</em> and pick the unzipped folder. The extension asks to reach this server and opens its settings page.',
  firefoxTitle: 'Firefox',
  firefoxDownload: 'Download for Firefox',
  firefox1: 'Download {file}.',
  firefox2:
    'Open <code>about:debugging#/runtime/this-firefox</code>, press <em>Load Temporary Add-on…</em> and pick the zip. The settings page opens.',
  firefox3:
    'A temporary add-on lasts until Firefox closes: this build is not signed by Mozilla, and Firefox keeps only signed add-ons. To keep it, on Firefox ESR, Developer Edition or Nightly set <code>xpinstall.signatures.required</code> to <code>false</code> in <code>about:config</code> and install the zip from <code>about:addons</code> (<em>Install Add-on From File…</em>); on Firefox itself, your administrator signs it once at addons.mozilla.org (unlisted, free) and hands out the signed file.',
  signInTitle: 'Then',
  signIn:
    'On the settings page, sign in with your e-mail and password (and your authenticator’s code), with your workspace’s single sign-on, or with a client access link. Then let it show its launcher on your projects’ sites, or press its toolbar button ({keys}) on any tab.',
};

export const translations: Record<Exclude<Locale, 'en'>, Translation<typeof english>> = {
  de: {
    title: 'Browsererweiterung · Feedback',
    heading: 'Jede Website prüfen: die Browsererweiterung',
    notBuiltTitle: 'Auf diesem Server nicht gebaut',
    notBuilt:
      'Dieser Server hat keinen Build der Erweiterung zum Herunterladen. Wer ihn betreibt, baut sie mit <code>npm run build</code> (oder nur <code>npm run build -w @svc/extension</code>) im Checkout des Servers und startet den Server danach neu.',
    intro:
      'Pinnen Sie Kommentare an jede Seite, die Sie öffnen, auch an Seiten ohne unser Skript (die Staging-Seite eines Kunden, eine Seite, deren Content-Security-Policy fremde Skripte verbietet), mit denselben Pins, demselben Panel und derselben Prüfschleife wie das Widget, auf diesem Server.',
    version:
      'Version {version}. Der Download ist für diesen Server gemacht: Bei der Installation bittet er um Zugriff auf {server}, und seine Einstellungsseite beginnt mit dieser Adresse.',
    chromiumTitle: 'Chrome, Edge, Brave und andere Chromium-Browser',
    chromiumDownload: 'Für Chromium-Browser herunterladen',
    chromium1:
      'Laden Sie {file} herunter und entpacken Sie die Datei in einen Ordner, den Sie behalten (der Browser lädt die Erweiterung von dort und vergisst sie, wenn der Ordner verschwindet).',
    chromium2:
      'Öffnen Sie <code>chrome://extensions</code> (<code>edge://extensions</code>, <code>brave://extensions</code>) und schalten Sie den <em>Entwicklermodus</em> ein.',
    chromium3:
      'Klicken Sie auf <em>Entpackte Erweiterung laden</em> und wählen Sie den entpackten Ordner. Die Erweiterung bittet um Zugriff auf diesen Server und öffnet ihre Einstellungsseite.',
    firefoxTitle: 'Firefox',
    firefoxDownload: 'Für Firefox herunterladen',
    firefox1: 'Laden Sie {file} herunter.',
    firefox2:
      'Öffnen Sie <code>about:debugging#/runtime/this-firefox</code>, klicken Sie auf <em>Temporäres Add-on laden…</em> und wählen Sie die ZIP-Datei. Die Einstellungsseite öffnet sich.',
    firefox3:
      'Ein temporäres Add-on bleibt, bis Firefox geschlossen wird: Dieser Build ist nicht von Mozilla signiert, und Firefox behält nur signierte Add-ons. Um es zu behalten, setzen Sie in Firefox ESR, Developer Edition oder Nightly <code>xpinstall.signatures.required</code> in <code>about:config</code> auf <code>false</code> und installieren die ZIP-Datei über <code>about:addons</code> (<em>Add-on aus Datei installieren…</em>); für Firefox selbst signiert Ihr Administrator es einmal auf addons.mozilla.org (nicht gelistet, kostenlos) und verteilt die signierte Datei.',
    signInTitle: 'Danach',
    signIn:
      'Melden Sie sich auf der Einstellungsseite mit Ihrer E-Mail-Adresse und Ihrem Passwort an (und dem Code Ihrer Authenticator-App), mit dem Single Sign-on Ihres Workspace oder mit einem Kundenzugangslink. Lassen Sie die Erweiterung dann ihren Launcher auf den Websites Ihrer Projekte zeigen, oder klicken Sie auf einem beliebigen Tab auf ihre Schaltfläche in der Symbolleiste ({keys}).',
  },
  fr: {
    title: 'Extension de navigateur · feedback',
    heading: 'Relire n’importe quel site : l’extension de navigateur',
    notBuiltTitle: 'Pas construite sur ce serveur',
    notBuilt:
      'Ce serveur n’a aucune version de l’extension à distribuer. La personne qui l’administre la construit avec <code>npm run build</code> (ou seulement <code>npm run build -w @svc/extension</code>) dans le dépôt du serveur, puis redémarre le serveur.',
    intro:
      'Épinglez des commentaires sur n’importe quelle page que vous ouvrez, y compris celles qui ne chargent pas notre script (le site de préproduction d’un client, une page dont la Content-Security-Policy interdit les scripts externes), avec les mêmes épingles, le même panneau et la même boucle de vérification que le widget, sur ce serveur.',
    version:
      'Version {version}. Le téléchargement est fait pour ce serveur : à l’installation, il demande l’accès à {server}, et sa page de réglages commence avec cette adresse.',
    chromiumTitle: 'Chrome, Edge, Brave et les autres navigateurs Chromium',
    chromiumDownload: 'Télécharger pour les navigateurs Chromium',
    chromium1:
      'Téléchargez {file} et décompressez-le dans un dossier que vous gardez (le navigateur charge l’extension depuis ce dossier, et l’oublie si le dossier disparaît).',
    chromium2:
      'Ouvrez <code>chrome://extensions</code> (<code>edge://extensions</code>, <code>brave://extensions</code>) et activez le <em>Mode développeur</em>.',
    chromium3:
      'Cliquez sur <em>Charger l’extension non empaquetée</em> et choisissez le dossier décompressé. L’extension demande l’accès à ce serveur et ouvre sa page de réglages.',
    firefoxTitle: 'Firefox',
    firefoxDownload: 'Télécharger pour Firefox',
    firefox1: 'Téléchargez {file}.',
    firefox2:
      'Ouvrez <code>about:debugging#/runtime/this-firefox</code>, cliquez sur <em>Charger un module complémentaire temporaire…</em> et choisissez le zip. La page de réglages s’ouvre.',
    firefox3:
      'Un module temporaire dure jusqu’à la fermeture de Firefox : cette version n’est pas signée par Mozilla, et Firefox ne garde que les modules signés. Pour la garder, sur Firefox ESR, Developer Edition ou Nightly, mettez <code>xpinstall.signatures.required</code> à <code>false</code> dans <code>about:config</code> et installez le zip depuis <code>about:addons</code> (<em>Installer un module depuis un fichier…</em>) ; sur Firefox lui-même, votre administrateur la signe une fois sur addons.mozilla.org (non listée, gratuit) et distribue le fichier signé.',
    signInTitle: 'Ensuite',
    signIn:
      'Sur la page de réglages, connectez-vous avec votre e-mail et votre mot de passe (et le code de votre application d’authentification), avec l’authentification unique de votre espace de travail, ou avec un lien d’accès client. Laissez-la ensuite afficher son lanceur sur les sites de vos projets, ou cliquez sur son bouton dans la barre d’outils ({keys}) sur n’importe quel onglet.',
  },
  es: {
    title: 'Extensión del navegador · feedback',
    heading: 'Revisa cualquier sitio: la extensión del navegador',
    notBuiltTitle: 'No está compilada en este servidor',
    notBuilt:
      'Este servidor no tiene ninguna compilación de la extensión para ofrecer. Quien lo administra la compila con <code>npm run build</code> (o solo <code>npm run build -w @svc/extension</code>) en la copia del servidor y luego reinicia el servidor.',
    intro:
      'Fija comentarios en cualquier página que abras, incluidas las que no cargan nuestro script (el sitio de pruebas de un cliente, una página cuya Content-Security-Policy prohíbe scripts ajenos), con los mismos pines, el mismo panel y el mismo ciclo de verificación que el widget, en este servidor.',
    version:
      'Versión {version}. La descarga está hecha para este servidor: al instalarla pide acceso a {server}, y su página de ajustes empieza con esa dirección.',
    chromiumTitle: 'Chrome, Edge, Brave y otros navegadores Chromium',
    chromiumDownload: 'Descargar para navegadores Chromium',
    chromium1:
      'Descarga {file} y descomprímelo en una carpeta que conserves (el navegador carga la extensión desde allí y la olvida si la carpeta desaparece).',
    chromium2:
      'Abre <code>chrome://extensions</code> (<code>edge://extensions</code>, <code>brave://extensions</code>) y activa el <em>Modo de desarrollador</em>.',
    chromium3:
      'Pulsa <em>Cargar descomprimida</em> y elige la carpeta descomprimida. La extensión pide acceso a este servidor y abre su página de ajustes.',
    firefoxTitle: 'Firefox',
    firefoxDownload: 'Descargar para Firefox',
    firefox1: 'Descarga {file}.',
    firefox2:
      'Abre <code>about:debugging#/runtime/this-firefox</code>, pulsa <em>Cargar complemento temporal…</em> y elige el zip. Se abre la página de ajustes.',
    firefox3:
      'Un complemento temporal dura hasta que se cierra Firefox: esta compilación no está firmada por Mozilla, y Firefox solo conserva complementos firmados. Para conservarla, en Firefox ESR, Developer Edition o Nightly pon <code>xpinstall.signatures.required</code> en <code>false</code> en <code>about:config</code> e instala el zip desde <code>about:addons</code> (<em>Instalar complemento desde archivo…</em>); en Firefox normal, tu administrador la firma una vez en addons.mozilla.org (sin publicar, gratis) y reparte el archivo firmado.',
    signInTitle: 'Después',
    signIn:
      'En la página de ajustes, inicia sesión con tu correo y tu contraseña (y el código de tu app de autenticación), con el inicio de sesión único de tu espacio de trabajo o con un enlace de acceso de cliente. Después deja que muestre su lanzador en los sitios de tus proyectos, o pulsa su botón de la barra de herramientas ({keys}) en cualquier pestaña.',
  },
  'pt-BR': {
    title: 'Extensão do navegador · feedback',
    heading: 'Revise qualquer site: a extensão do navegador',
    notBuiltTitle: 'Não compilada neste servidor',
    notBuilt:
      'Este servidor não tem nenhuma compilação da extensão para oferecer. Quem o administra a compila com <code>npm run build</code> (ou só <code>npm run build -w @svc/extension</code>) na cópia do servidor e depois reinicia o servidor.',
    intro:
      'Fixe comentários em qualquer página que você abrir, inclusive páginas que não carregam nosso script (o site de homologação de um cliente, uma página cuja Content-Security-Policy proíbe scripts de fora), com os mesmos pinos, o mesmo painel e o mesmo ciclo de verificação do widget, neste servidor.',
    version:
      'Versão {version}. O download é feito para este servidor: ao ser instalado, pede acesso a {server}, e sua página de configurações começa com esse endereço.',
    chromiumTitle: 'Chrome, Edge, Brave e outros navegadores Chromium',
    chromiumDownload: 'Baixar para navegadores Chromium',
    chromium1:
      'Baixe {file} e descompacte-o em uma pasta que você vai manter (o navegador carrega a extensão de lá e a esquece se a pasta sumir).',
    chromium2:
      'Abra <code>chrome://extensions</code> (<code>edge://extensions</code>, <code>brave://extensions</code>) e ative o <em>Modo do desenvolvedor</em>.',
    chromium3:
      'Clique em <em>Carregar sem compactação</em> e escolha a pasta descompactada. A extensão pede acesso a este servidor e abre sua página de configurações.',
    firefoxTitle: 'Firefox',
    firefoxDownload: 'Baixar para Firefox',
    firefox1: 'Baixe {file}.',
    firefox2:
      'Abra <code>about:debugging#/runtime/this-firefox</code>, clique em <em>Carregar extensão temporária…</em> e escolha o zip. A página de configurações se abre.',
    firefox3:
      'Uma extensão temporária dura até o Firefox fechar: esta compilação não é assinada pela Mozilla, e o Firefox só mantém extensões assinadas. Para mantê-la, no Firefox ESR, Developer Edition ou Nightly defina <code>xpinstall.signatures.required</code> como <code>false</code> em <code>about:config</code> e instale o zip em <code>about:addons</code> (<em>Instalar extensão de arquivo…</em>); no Firefox comum, seu administrador a assina uma vez em addons.mozilla.org (não listada, grátis) e distribui o arquivo assinado.',
    signInTitle: 'Depois',
    signIn:
      'Na página de configurações, entre com seu e-mail e sua senha (e o código do seu app autenticador), com o login único do seu espaço de trabalho ou com um link de acesso de cliente. Depois deixe-a mostrar o botão de abrir nos sites dos seus projetos, ou clique no botão dela na barra de ferramentas ({keys}) em qualquer aba.',
  },
  it: {
    title: 'Estensione del browser · feedback',
    heading: 'Rivedi qualsiasi sito: l’estensione del browser',
    notBuiltTitle: 'Non compilata su questo server',
    notBuilt:
      'Questo server non ha una build dell’estensione da distribuire. Chi lo gestisce la compila con <code>npm run build</code> (o solo <code>npm run build -w @svc/extension</code>) nella copia del server, poi riavvia il server.',
    intro:
      'Appunta commenti su qualsiasi pagina che apri, anche su pagine che non caricano il nostro script (il sito di staging di un cliente, una pagina la cui Content-Security-Policy vieta script esterni), con gli stessi pin, lo stesso pannello e lo stesso ciclo di verifica del widget, su questo server.',
    version:
      'Versione {version}. Il download è fatto per questo server: all’installazione chiede di raggiungere {server}, e la sua pagina delle impostazioni parte da quell’indirizzo.',
    chromiumTitle: 'Chrome, Edge, Brave e altri browser Chromium',
    chromiumDownload: 'Scarica per i browser Chromium',
    chromium1:
      'Scarica {file} ed estrailo in una cartella che conservi (il browser carica l’estensione da lì e la dimentica se la cartella sparisce).',
    chromium2:
      'Apri <code>chrome://extensions</code> (<code>edge://extensions</code>, <code>brave://extensions</code>) e attiva la <em>Modalità sviluppatore</em>.',
    chromium3:
      'Premi <em>Carica estensione non pacchettizzata</em> e scegli la cartella estratta. L’estensione chiede di raggiungere questo server e apre la sua pagina delle impostazioni.',
    firefoxTitle: 'Firefox',
    firefoxDownload: 'Scarica per Firefox',
    firefox1: 'Scarica {file}.',
    firefox2:
      'Apri <code>about:debugging#/runtime/this-firefox</code>, premi <em>Carica componente aggiuntivo temporaneo…</em> e scegli lo zip. Si apre la pagina delle impostazioni.',
    firefox3:
      'Un componente aggiuntivo temporaneo dura finché Firefox non si chiude: questa build non è firmata da Mozilla, e Firefox conserva solo componenti firmati. Per conservarla, su Firefox ESR, Developer Edition o Nightly imposta <code>xpinstall.signatures.required</code> a <code>false</code> in <code>about:config</code> e installa lo zip da <code>about:addons</code> (<em>Installa componente aggiuntivo da file…</em>); su Firefox normale, il tuo amministratore la firma una volta su addons.mozilla.org (non elencata, gratis) e distribuisce il file firmato.',
    signInTitle: 'Poi',
    signIn:
      'Nella pagina delle impostazioni, accedi con la tua email e la tua password (e il codice della tua app di autenticazione), con l’accesso unico del tuo workspace o con un link di accesso cliente. Poi lascia che mostri il suo pulsante di avvio sui siti dei tuoi progetti, oppure premi il suo pulsante nella barra degli strumenti ({keys}) su qualsiasi scheda.',
  },
  nl: {
    title: 'Browserextensie · feedback',
    heading: 'Elke site beoordelen: de browserextensie',
    notBuiltTitle: 'Niet gebouwd op deze server',
    notBuilt:
      'Deze server heeft geen build van de extensie om uit te delen. Wie hem beheert, bouwt die met <code>npm run build</code> (of alleen <code>npm run build -w @svc/extension</code>) in de checkout van de server en start de server daarna opnieuw.',
    intro:
      'Prik opmerkingen op elke pagina die je opent, ook op pagina’s zonder ons script (de testsite van een klant, een pagina waarvan de Content-Security-Policy vreemde scripts verbiedt), met dezelfde pins, hetzelfde paneel en dezelfde controlelus als de widget, op deze server.',
    version:
      'Versie {version}. De download is gemaakt voor deze server: bij installatie vraagt hij toegang tot {server}, en zijn instellingenpagina begint met dat adres.',
    chromiumTitle: 'Chrome, Edge, Brave en andere Chromium-browsers',
    chromiumDownload: 'Downloaden voor Chromium-browsers',
    chromium1:
      'Download {file} en pak het uit in een map die je bewaart (de browser laadt de extensie daarvandaan en vergeet haar als de map verdwijnt).',
    chromium2:
      'Open <code>chrome://extensions</code> (<code>edge://extensions</code>, <code>brave://extensions</code>) en zet de <em>Ontwikkelaarsmodus</em> aan.',
    chromium3:
      'Klik op <em>Uitgepakte extensie laden</em> en kies de uitgepakte map. De extensie vraagt toegang tot deze server en opent haar instellingenpagina.',
    firefoxTitle: 'Firefox',
    firefoxDownload: 'Downloaden voor Firefox',
    firefox1: 'Download het bestand {file}.',
    firefox2:
      'Open <code>about:debugging#/runtime/this-firefox</code>, klik op <em>Tijdelijke add-on laden…</em> en kies de zip. De instellingenpagina opent.',
    firefox3:
      'Een tijdelijke add-on blijft tot Firefox sluit: deze build is niet door Mozilla ondertekend, en Firefox houdt alleen ondertekende add-ons. Om hem te houden, zet je in Firefox ESR, Developer Edition of Nightly <code>xpinstall.signatures.required</code> op <code>false</code> in <code>about:config</code> en installeer je de zip via <code>about:addons</code> (<em>Add-on installeren via bestand…</em>); in Firefox zelf ondertekent je beheerder hem één keer op addons.mozilla.org (niet openbaar, gratis) en deelt het ondertekende bestand uit.',
    signInTitle: 'Daarna',
    signIn:
      'Log op de instellingenpagina in met je e-mailadres en wachtwoord (en de code van je authenticator-app), met de single sign-on van je werkruimte of met een klanttoegangslink. Laat de extensie daarna haar startknop tonen op de sites van je projecten, of klik op elk tabblad op haar knop in de werkbalk ({keys}).',
  },
  ja: {
    title: 'ブラウザー拡張機能 · フィードバック',
    heading: 'どのサイトでもレビュー：ブラウザー拡張機能',
    notBuiltTitle: 'このサーバーではビルドされていません',
    notBuilt:
      'このサーバーには配布できる拡張機能のビルドがありません。運用している人がサーバーのチェックアウトで <code>npm run build</code>（または <code>npm run build -w @svc/extension</code> だけ）を実行してビルドし、サーバーを再起動します。',
    intro:
      '開いたどのページにもコメントをピン留めできます。私たちのスクリプトを読み込まないページ（クライアントのステージングサイトや、Content-Security-Policy で外部スクリプトを禁じているページ）でも、ウィジェットと同じピン、パネル、確認の流れで、このサーバーに残せます。',
    version:
      'バージョン {version}。このダウンロードはこのサーバー用に作られています。インストール時に {server} への接続を求め、設定ページはそのアドレスで始まります。',
    chromiumTitle: 'Chrome、Edge、Brave などの Chromium 系ブラウザー',
    chromiumDownload: 'Chromium 系ブラウザー用にダウンロード',
    chromium1:
      '{file} をダウンロードし、残しておくフォルダーに展開します（ブラウザーはそこから拡張機能を読み込み、フォルダーがなくなると拡張機能も消えます）。',
    chromium2:
      '<code>chrome://extensions</code>（<code>edge://extensions</code>、<code>brave://extensions</code>）を開き、<em>デベロッパー モード</em>をオンにします。',
    chromium3:
      '<em>パッケージ化されていない拡張機能を読み込む</em>を押し、展開したフォルダーを選びます。拡張機能がこのサーバーへの接続を求め、設定ページを開きます。',
    firefoxTitle: 'Firefox',
    firefoxDownload: 'Firefox 用にダウンロード',
    firefox1: '{file} をダウンロードします。',
    firefox2:
      '<code>about:debugging#/runtime/this-firefox</code> を開き、<em>一時的なアドオンを読み込む…</em>を押して zip を選びます。設定ページが開きます。',
    firefox3:
      '一時的なアドオンは Firefox を閉じるまでしか残りません。このビルドは Mozilla の署名がなく、Firefox は署名されたアドオンしか保持しないためです。残すには、Firefox ESR、Developer Edition、Nightly では <code>about:config</code> で <code>xpinstall.signatures.required</code> を <code>false</code> にし、<code>about:addons</code> から zip をインストールします（<em>ファイルからアドオンをインストール…</em>）。通常の Firefox では、管理者が addons.mozilla.org で一度署名し（非公開、無料）、署名済みのファイルを配布します。',
    signInTitle: 'そのあと',
    signIn:
      '設定ページで、メールアドレスとパスワード（と認証アプリのコード）、ワークスペースのシングルサインオン、またはクライアント用アクセスリンクでサインインします。そのあと、プロジェクトのサイトでランチャーを表示させるか、どのタブでもツールバーのボタン（{keys}）を押します。',
  },
  'zh-CN': {
    title: '浏览器扩展 · 反馈',
    heading: '审阅任何网站：浏览器扩展',
    notBuiltTitle: '此服务器上尚未构建',
    notBuilt:
      '此服务器没有可分发的扩展构建。服务器的维护者在服务器的代码目录中运行 <code>npm run build</code>（或只运行 <code>npm run build -w @svc/extension</code>）进行构建，然后重启服务器。',
    intro:
      '在你打开的任何页面上固定评论，包括没有加载我们脚本的页面（客户的预发布网站、Content-Security-Policy 禁止外部脚本的页面），使用与小组件相同的图钉、面板和验证流程，保存在此服务器上。',
    version: '版本 {version}。此下载专为此服务器制作：安装时它会请求访问 {server}，其设置页面也以该地址开始。',
    chromiumTitle: 'Chrome、Edge、Brave 及其他 Chromium 浏览器',
    chromiumDownload: '下载 Chromium 浏览器版',
    chromium1: '下载 {file} 并解压到一个你会保留的文件夹（浏览器从那里加载扩展，文件夹被删除后扩展也会消失）。',
    chromium2:
      '打开 <code>chrome://extensions</code>（<code>edge://extensions</code>、<code>brave://extensions</code>），开启<em>开发者模式</em>。',
    chromium3: '点击<em>加载已解压的扩展程序</em>，选择解压后的文件夹。扩展会请求访问此服务器，并打开其设置页面。',
    firefoxTitle: 'Firefox',
    firefoxDownload: '下载 Firefox 版',
    firefox1: '下载 {file}。',
    firefox2:
      '打开 <code>about:debugging#/runtime/this-firefox</code>，点击<em>临时载入附加组件…</em>并选择该 zip 文件。设置页面随即打开。',
    firefox3:
      '临时附加组件只保留到 Firefox 关闭：此构建没有 Mozilla 的签名，而 Firefox 只保留已签名的附加组件。要保留它，在 Firefox ESR、Developer Edition 或 Nightly 中，于 <code>about:config</code> 将 <code>xpinstall.signatures.required</code> 设为 <code>false</code>，再从 <code>about:addons</code> 安装该 zip（<em>从文件安装附加组件…</em>）;在普通 Firefox 中，由管理员在 addons.mozilla.org 上签名一次（不公开列出，免费）并分发签名后的文件。',
    signInTitle: '然后',
    signIn:
      '在设置页面，用你的邮箱和密码（以及身份验证器的验证码）、工作区的单点登录或客户访问链接登录。然后让它在你的项目网站上显示启动按钮，或在任意标签页上点击它的工具栏按钮（{keys}）。',
  },
  ar: {
    title: 'إضافة المتصفح · الملاحظات',
    heading: 'راجِع أي موقع: إضافة المتصفح',
    notBuiltTitle: 'غير مبنية على هذا الخادم',
    notBuilt:
      'لا يملك هذا الخادم نسخة مبنية من الإضافة ليوزّعها. يبنيها من يدير الخادم بالأمر <code>npm run build</code> (أو <code>npm run build -w @svc/extension</code> وحده) في نسخة الخادم، ثم يعيد تشغيل الخادم.',
    intro:
      'ثبّت التعليقات على أي صفحة تفتحها، بما فيها الصفحات التي لا تحمل نصنا البرمجي (موقع تجريبي لعميل، أو صفحة تمنع سياسة Content-Security-Policy فيها النصوص البرمجية الخارجية)، بالدبابيس واللوحة وحلقة التحقق نفسها التي في الأداة، على هذا الخادم.',
    version:
      'الإصدار {version}. هذا التنزيل مصنوع لهذا الخادم: يطلب عند تثبيته الوصول إلى {server}، وتبدأ صفحة إعداداته بهذا العنوان.',
    chromiumTitle: 'Chrome وEdge وBrave ومتصفحات Chromium الأخرى',
    chromiumDownload: 'تنزيل لمتصفحات Chromium',
    chromium1: 'نزّل {file} وفكّ ضغطه في مجلد تحتفظ به (يحمّل المتصفح الإضافة من هناك، وينساها إذا حُذف المجلد).',
    chromium2:
      'افتح <code>chrome://extensions</code> (<code>edge://extensions</code>، <code>brave://extensions</code>) وفعّل <em>وضع المطوّر</em>.',
    chromium3:
      'اضغط <em>تحميل إضافة غير مضغوطة</em> واختر المجلد الذي فككت ضغطه. تطلب الإضافة الوصول إلى هذا الخادم وتفتح صفحة إعداداتها.',
    firefoxTitle: 'Firefox',
    firefoxDownload: 'تنزيل لـ Firefox',
    firefox1: 'نزّل {file}.',
    firefox2:
      'افتح <code>about:debugging#/runtime/this-firefox</code>، واضغط <em>تحميل إضافة مؤقتة…</em> واختر ملف zip. تُفتح صفحة الإعدادات.',
    firefox3:
      'تبقى الإضافة المؤقتة حتى يُغلق Firefox: هذه النسخة غير موقّعة من Mozilla، ولا يحتفظ Firefox إلا بالإضافات الموقّعة. للاحتفاظ بها، في Firefox ESR أو Developer Edition أو Nightly اضبط <code>xpinstall.signatures.required</code> على <code>false</code> في <code>about:config</code> وثبّت ملف zip من <code>about:addons</code> (<em>تثبيت إضافة من ملف…</em>)؛ أما في Firefox العادي فيوقّعها المسؤول مرة واحدة على addons.mozilla.org (غير مُدرجة، مجانًا) ويوزّع الملف الموقّع.',
    signInTitle: 'بعد ذلك',
    signIn:
      'في صفحة الإعدادات، سجّل الدخول ببريدك الإلكتروني وكلمة مرورك (ورمز تطبيق المصادقة)، أو بالدخول الموحّد لمساحة عملك، أو برابط وصول العميل. ثم دعها تُظهر زر التشغيل على مواقع مشاريعك، أو اضغط زرها في شريط الأدوات ({keys}) في أي علامة تبويب.',
  },
};
