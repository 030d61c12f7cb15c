/** The console's stylesheet: system fonts, light and dark, readable status badges. */
export const CONSOLE_STYLE = `
:root { color-scheme: light dark; --bg: #f6f7f9; --card: #fff; --text: #1b1f24; --muted: #5b6470; --line: #d9dde3;
  --accent: #2f5bd3; --accent-text: #fff; --ok: #137333; --warn: #8a5a00; --bad: #b3261e; --code: #eef1f5; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #111418; --card: #1a1e24; --text: #e7eaee; --muted: #9aa4b1; --line: #2c323b; --accent: #7ea2ff;
    --accent-text: #0b1020; --ok: #6fd08c; --warn: #f2c46d; --bad: #ff8a80; --code: #232932; }
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--text); }
header { display: flex; flex-wrap: wrap; gap: 12px 24px; align-items: center; padding: 14px 24px; background: var(--card);
  border-bottom: 1px solid var(--line); position: sticky; top: 0; z-index: 1; }
header h1 { font-size: 18px; margin: 0; }
header h1 span { color: var(--muted); font-weight: 400; }
.clock { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-left: auto; }
.clock output { font-variant-numeric: tabular-nums; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
main { display: grid; grid-template-columns: repeat(auto-fit, minmax(420px, 1fr)); gap: 16px; padding: 16px 24px 40px; }
section { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 16px 18px; min-width: 0; }
section.wide { grid-column: 1 / -1; }
h2 { font-size: 16px; margin: 0 0 12px; }
h3 { font-size: 14px; margin: 14px 0 8px; }
label { display: inline-flex; gap: 6px; align-items: center; }
.field { display: flex; flex-direction: column; gap: 4px; margin-bottom: 10px; }
.field > label { font-weight: 600; font-size: 13px; }
input[type=text], input[type=url], select { font: inherit; padding: 6px 8px; border: 1px solid var(--line); border-radius: 6px;
  background: var(--bg); color: var(--text); min-width: 0; width: 100%; }
fieldset { border: 1px solid var(--line); border-radius: 8px; margin: 0 0 10px; padding: 8px 12px; display: flex; flex-wrap: wrap; gap: 6px 16px; }
legend { font-weight: 600; font-size: 13px; padding: 0 4px; }
button { font: inherit; font-size: 13px; padding: 5px 11px; border-radius: 6px; border: 1px solid var(--line); background: var(--bg);
  color: var(--text); cursor: pointer; }
button:hover { border-color: var(--accent); }
button.primary { background: var(--accent); color: var(--accent-text); border-color: var(--accent); }
button.danger { color: var(--bad); }
button:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
.row { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
table { width: 100%; border-collapse: collapse; font-size: 13px; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
td.actions { white-space: nowrap; }
td.actions button { margin: 0 4px 4px 0; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12.5px; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: 12px; font-weight: 600; border: 1px solid currentColor; }
.badge.ok { color: var(--ok); } .badge.warn { color: var(--warn); } .badge.bad { color: var(--bad); } .badge.muted { color: var(--muted); }
.reveal { margin: 10px 0; padding: 10px 12px; border: 1px dashed var(--warn); border-radius: 8px; background: var(--code); }
.reveal p { margin: 0 0 6px; font-weight: 600; }
.reveal code { display: inline-block; word-break: break-all; margin-right: 8px; }
.muted { color: var(--muted); }
.empty { color: var(--muted); font-style: italic; margin: 6px 0; }
#announcer { position: fixed; bottom: 16px; right: 16px; max-width: 480px; z-index: 2; }
#announcer p { margin: 0; padding: 10px 14px; border-radius: 8px; background: var(--card); border: 1px solid var(--line);
  box-shadow: 0 4px 16px rgba(0,0,0,.15); }
#announcer p.error { border-color: var(--bad); color: var(--bad); }
#announcer p:empty { display: none; }
details summary { cursor: pointer; color: var(--accent); }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;
