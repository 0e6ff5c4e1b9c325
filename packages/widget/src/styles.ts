// Everything the widget looks like. The host's own element name keeps page rules for divs
// away; `all: initial !important` on :host beats even a page's !important rules on it (in the
// cascade a shadow root's important rules win), so nothing is inherited from the page; and
// every text property is set again on each top-level part. The custom properties are the
// theming surface.
export const styles = `
:host{all:initial!important;display:block!important;position:absolute!important;top:0!important;left:0!important;width:0!important;height:0!important;margin:0!important;padding:0!important;border:0!important;transform:none!important;z-index:2147483000!important;--pf-notify:#f59e0b;--pf-accent:#4f46e5;--pf-text:#111827;--pf-muted:#4b5563;--pf-bg:#fff;--pf-line:#e5e7eb;--pf-ok:#047857;--pf-live:#7c3aed;--pf-font:system-ui,-apple-system,"Segoe UI",sans-serif}
:host>*{font:400 14px/1.45 var(--pf-font);color:var(--pf-text);letter-spacing:normal;word-spacing:normal;text-transform:none;text-align:start;text-indent:0;text-shadow:none;white-space:normal;direction:ltr;visibility:visible;cursor:auto}
:host([dir=rtl])>*{direction:rtl}
*{box-sizing:border-box;font-family:var(--pf-font)}
button,textarea,input{font:inherit;color:inherit}
button{cursor:pointer}
:focus-visible{outline:2px solid var(--pf-accent);outline-offset:2px}
.launcher{position:fixed;inset-inline-end:20px;bottom:20px;width:52px;height:52px;border-radius:50%;border:0;background:var(--pf-accent);color:#fff;box-shadow:0 4px 14px rgba(0,0,0,.25);display:grid;place-items:center}
.launcher svg{width:24px;height:24px}
.badge{position:absolute;top:-4px;inset-inline-end:-4px;min-width:22px;height:22px;padding:0 6px;border-radius:11px;background:var(--pf-notify);color:#111;font:700 12px/22px var(--pf-font);text-align:center;border:2px solid #fff}
.badge[hidden]{display:none}
.panel{position:fixed;inset-inline-end:20px;bottom:84px;width:380px;max-width:calc(100vw - 40px);max-height:min(620px,calc(100vh - 110px));display:flex;flex-direction:column;background:var(--pf-bg);color:var(--pf-text);border:1px solid var(--pf-line);border-radius:12px;box-shadow:0 12px 40px rgba(0,0,0,.2);overflow:hidden}
.panel[hidden]{display:none}
.link{border:0;background:none;padding:0;color:var(--pf-accent);text-decoration:underline;font-size:12px;white-space:nowrap}
.empty{color:var(--pf-muted);text-align:center;padding:24px 8px}
.btn{border:1px solid #d1d5db;background:#fff;border-radius:6px;padding:6px 12px;font-weight:600;white-space:nowrap}
.btn:disabled{opacity:.5;cursor:default}
.pin{position:absolute;width:26px;height:26px;margin:-20px 0 0 -6px;border-radius:50% 50% 50% 0;background:var(--pf-accent);color:#fff;border:2px solid #fff;font:700 11px/22px var(--pf-font);text-align:center;box-shadow:0 2px 6px rgba(0,0,0,.3);padding:0}
.pin.applied{background:var(--pf-ok)}
.pin.doubtful{background:#fff;color:var(--pf-accent);border:2px dashed var(--pf-accent);width:32px}
.pin[hidden]{display:none}
.outline{position:absolute;display:none;pointer-events:none;border:2px solid var(--pf-accent);background:rgba(79,70,229,.08);border-radius:3px}
.flash{position:absolute;pointer-events:none;border:3px solid var(--pf-notify);border-radius:4px}
.hint{position:fixed;left:50%;top:16px;transform:translateX(-50%);max-width:calc(100vw - 16px);background:#111827;color:#fff;border-radius:8px;padding:8px 12px;font-size:13px;display:flex;gap:10px;align-items:center;box-shadow:0 4px 14px rgba(0,0,0,.3);pointer-events:none}
.hint.below{top:auto;bottom:16px}
.hint span{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.hint .btn{padding:3px 8px;font-size:12px;color:#111827;pointer-events:auto}
.short{display:none}
@media (max-width:480px){
.panel{inset:0;width:auto;max-width:none;max-height:none;border-radius:0;border:0}
.launcher{inset-inline-end:12px;bottom:12px}
.launcher[aria-expanded=true]{display:none}
.long{display:none}.short{display:inline}
.hint{top:8px;padding:6px 10px}
}
`;

/** What the panel's contents (and a first visit's welcome) look like: in the panel's chunk, added when it loads. */
export const panelStyles = `
.welcome{position:fixed;inset-inline-end:20px;bottom:84px;width:310px;max-width:calc(100vw - 40px);background:var(--pf-bg);border:1px solid var(--pf-line);border-radius:12px;box-shadow:0 12px 40px rgba(0,0,0,.2);padding:14px 16px}
.welcome h2{font-size:15px;font-weight:700;margin:0 0 6px}
.welcome p{margin:0}
.panel:not([hidden])~div .welcome,div[hidden]~div .welcome{display:none}
@media (max-width:480px){.welcome{inset-inline:12px;bottom:76px;width:auto;max-width:none}}
.unlabel{margin-inline-start:2px;padding:0 4px;border:0;background:none;color:inherit;cursor:pointer;font-size:13px;line-height:1}
.attach{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin:6px 0}
.attach .btn{font-weight:500;padding:4px 10px;cursor:pointer}
.attach:focus-within .btn{outline:2px solid var(--pf-accent);outline-offset:2px}
.thumbs{display:flex;flex-wrap:wrap;gap:6px;list-style:none;margin:6px 0;padding:0}
.thumbs li{display:flex;align-items:flex-start}
.thumbs img{width:64px;height:48px;object-fit:cover;border:1px solid var(--pf-line);border-radius:4px;display:block}
.attach img.marked{width:96px;height:64px;object-fit:contain;background:#f3f4f6;border:1px solid var(--pf-line);border-radius:4px}
.before-after{margin:8px 0}
.before-after .frames{overflow:auto;max-height:min(70vh,560px);border:1px solid var(--pf-line);border-radius:6px;padding:6px;background:#f9fafb}
.before-after figure{margin:0 0 8px}
.before-after figure:last-child{margin:0}
.before-after figcaption{font-size:12px;font-weight:600;color:var(--pf-muted);margin:0 0 2px}
.before-after img{display:block;max-width:none;width:max(var(--readable,0px),min(var(--page,100%),var(--fit,100%)));border:1px solid var(--pf-line);border-radius:4px;background:#fff}
.before-after .full img{width:var(--page,100%)}
.before-after .chip{margin-top:4px}
.before-after figure .gone{font-size:13px;overflow-wrap:anywhere}
.gone p{margin:0 0 6px}
.hidden-note{grid-column:1/-1;margin:0;font-size:12px;color:var(--pf-muted)}
.hidden-note .link{white-space:normal;text-align:start}
.gone .btn{white-space:normal;text-align:start}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.mentioning{position:relative}
.people{position:absolute;inset-inline:0;top:100%;z-index:2;margin:2px 0 0;padding:4px 0;list-style:none;background:#fff;border:1px solid var(--pf-line);border-radius:6px;box-shadow:0 4px 14px rgba(0,0,0,.15);max-height:180px;overflow:auto}
.people li{padding:6px 10px;cursor:pointer;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.people [aria-selected=true]{background:#eef2ff;color:#1e1b4b}
header{display:flex;align-items:center;flex-wrap:wrap;gap:4px;padding:8px;border-bottom:1px solid var(--pf-line)}
.who{flex-basis:100%;min-width:0;display:flex;flex-wrap:wrap;gap:4px 8px;align-items:center;font-size:12px;color:var(--pf-muted);padding:0 6px}
.who span{min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.who strong{color:var(--pf-text);font-weight:600}
.language{margin-inline-start:auto;max-width:100%;min-width:0;font:inherit;font-size:12px;color:var(--pf-text);background:#fff;border:1px solid var(--pf-line);border-radius:6px;padding:2px 4px}
[role=tablist]{display:flex;gap:2px;flex:1}
[role=tab]{border:0;background:none;padding:6px 10px;border-radius:6px;color:var(--pf-muted);font-weight:600}
[role=tab][aria-selected=true]{background:#eef2ff;color:var(--pf-accent)}
.icon{border:0;background:none;padding:6px 8px;white-space:nowrap;border-radius:6px;color:var(--pf-muted)}
.icon:hover,[role=tab]:hover{background:#f3f4f6}
.body{overflow:auto;padding:10px 12px;flex:1}
.muted{color:var(--pf-muted);font-size:12px}
ul{list-style:none;margin:0;padding:0}
.item{border-bottom:1px solid var(--pf-line);padding:6px 4px 8px}
.item:hover{background:#f9fafb}
.item>.open{display:block;width:100%;text-align:start;border:0;background:none;padding:4px 0;color:inherit;text-decoration:none}
.how{display:block;font-size:12px;font-weight:600;color:var(--pf-accent)}
.item.unread{background:#fffbeb}
.row{display:flex;align-items:center;gap:6px;flex-wrap:wrap}
.type{font-weight:600}
.excerpt{display:block;margin:2px 0;overflow-wrap:anywhere}
a{color:var(--pf-accent)}
.sha{font-family:ui-monospace,monospace;font-size:12px}
.comment{border:1px solid var(--pf-line);border-radius:8px;padding:10px;margin-bottom:8px}
.comment.highlight{border-color:var(--pf-notify);box-shadow:0 0 0 3px rgba(245,158,11,.35)}
.comment p{margin:4px 0;white-space:pre-wrap;overflow-wrap:anywhere}
.pills{display:flex;gap:4px;margin-inline-start:auto;flex-wrap:nowrap}
.number{display:inline-grid;place-items:center;min-width:20px;height:20px;border-radius:50%;background:var(--pf-accent);color:#fff;font-size:11px;font-weight:700}
.filters{display:flex;flex-wrap:wrap;gap:4px;margin-bottom:8px}
.chip{border:1px solid var(--pf-line);background:none;border-radius:999px;padding:2px 10px;font-size:12px;color:var(--pf-text)}
.chip[aria-pressed=true]{background:var(--pf-accent);border-color:var(--pf-accent);color:#fff}
.confirm{color:var(--pf-ok);font-size:13px;font-weight:600}
.confirm.refused{color:#b91c1c}
.actions.team{justify-content:flex-start;margin-top:4px}
.actions.start{justify-content:flex-start}
.end{margin-inline-start:auto}
.pre{white-space:pre-wrap}
.title{flex:1;padding:6px}
.pill{display:inline-block;white-space:nowrap;border-radius:999px;padding:1px 8px;font-size:12px;font-weight:600;background:#f3f4f6;color:#374151}
.pill.completed{background:#dbeafe;color:#1e40af}
.pill.live{background:#ede9fe;color:var(--pf-live)}
.pill.verified{background:#d1fae5;color:var(--pf-ok)}
.pill.priority-high{background:#ffedd5;color:#9a3412}
.pill.priority-urgent,.pill.overdue{background:#fee2e2;color:#991b1b}
.actions select.priority{font:inherit;font-size:12px;padding:2px 4px;border:1px solid var(--pf-line);border-radius:6px;background:#fff;color:var(--pf-text)}
.labels{display:flex;flex-wrap:wrap;gap:4px 10px;margin:4px 0;font-size:12px}
.label{display:inline-flex;align-items:center;gap:4px}
.dot{width:8px;height:8px;border-radius:50%;background:#6b7280}
.dot.red{background:#dc2626}.dot.orange{background:#ea580c}.dot.yellow{background:#ca8a04}.dot.green{background:#16a34a}
.dot.teal{background:#0d9488}.dot.blue{background:#2563eb}.dot.purple{background:#9333ea}.dot.pink{background:#db2777}
.story{margin:8px 0 0;font-size:12px}
.replies{margin:8px 0 0;padding-inline-start:10px;border-inline-start:2px solid var(--pf-line)}
.replies li{margin:6px 0}
textarea,input{width:100%;border:1px solid #d1d5db;border-radius:6px;padding:7px 9px;background:#fff}
textarea{min-height:64px;resize:vertical}
label{display:block;font-weight:600;margin:8px 0 4px}
.actions{display:flex;flex-wrap:wrap;gap:6px;justify-content:flex-end;margin-top:8px;align-items:center}
.btn.danger{color:#b91c1c;border-color:#fca5a5}
.btn.primary{background:var(--pf-accent);border-color:var(--pf-accent);color:#fff}
.btn.ok{background:#047857;border-color:#047857;color:#fff}
.error{color:#b91c1c;font-size:13px;margin:6px 0 0}
.toggle,.whose{display:flex;align-items:center;gap:6px;font-size:13px;color:var(--pf-muted);margin-bottom:8px;font-weight:400}
.toggle input{width:auto}
.moved{color:#92400e;font-weight:600}
strong.missing{color:#b91c1c;font-weight:600}
section.missing{margin-top:12px;padding-top:8px;border-top:1px solid var(--pf-line)}
section.missing h3{font-size:14px;margin:0 0 4px}
.shot{display:block;border:1px solid var(--pf-line);border-radius:6px;padding:0;background:none;margin:6px 0;max-width:100%}
.thumb{display:block;max-width:100%;max-height:140px;border-radius:6px}
.details{font-size:12px;margin:4px 0;padding:6px 8px;background:#f9fafb;border-radius:6px;overflow-wrap:anywhere}
.details dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 8px;margin:0 0 6px}
.details dt{color:var(--pf-muted)}.details dd{margin:0}
.details li{margin:2px 0}
`;
