#!/usr/bin/env bash
# Records the terminal transcript of docs/cli.md: the built CLI against a real emulator on
# 127.0.0.1:4010 (real clock). Run from the repository root after `pnpm build`.
set -euo pipefail
CLI="$(pwd)/packages/cli/dist/cli.js"
parley() { node "$CLI" "$@"; }
show() { printf '$ %s\n' "$*"; eval "$@" 2>&1 || printf '[exit %s]\n' "$?"; printf '\n'; }
WORK="$(mktemp -d)"
export NO_COLOR=1 HOME="$WORK/home"
unset XDG_CONFIG_HOME
unset PARLEY_API_KEY PARLEY_BASE_URL PARLEY_PROFILE

: > $WORK/emulator.log
node "$CLI" emulator start --port 4010 >> $WORK/emulator.log 2>&1 &
EMULATOR=$!
node -e "require('http').createServer((q,s)=>{q.resume();q.on('end',()=>{s.writeHead(200);s.end()})}).listen(3000,'127.0.0.1')" &
APP=$!
trap 'kill -INT $EMULATOR $APP 2>/dev/null; wait $EMULATOR 2>/dev/null || true; rm -rf "$WORK"' EXIT
until grep -q ready $WORK/emulator.log; do sleep 0.1; done

printf '$ parley emulator start\n'; cat $WORK/emulator.log; printf '\n'
show parley config set --api-key prl_sandbox_parleyEmulatorDefaultSandboxKey1 --base-url http://127.0.0.1:4010/v1
show parley config list
show parley status
show parley connections list
show parley templates list --connection 7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51
show parley send --connection 7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51 --to +33612345678 --template order_confirmation --var Ada A-1042 --wait
show parley send --connection 7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b51 --to +33612345678 --text "'Votre colis arrive demain.'" --json
show parley send --connection 7f3c2a1e-5b4d-4c6e-9a8b-0d1e2f3a4b52 --to +33612345678 --text Bonjour
show parley send --to +33612345678 --no-input
show parley status --api-key prl_sandbox_0000000000000000000000000000000A

: > $WORK/listen.log
printf '$ parley listen --forward-to http://127.0.0.1:3000/webhooks --events message.received,webhook.test\n'
node "$CLI" listen --forward-to http://127.0.0.1:3000/webhooks --events message.received,webhook.test >> $WORK/listen.log 2>&1 &
LISTEN=$!
until grep -q Ready $WORK/listen.log 2>/dev/null; do sleep 0.1; done
node "$CLI" trigger message.received > $WORK/trigger.log 2>&1
until grep -q '→' $WORK/listen.log; do sleep 0.1; done
kill -INT $LISTEN; wait $LISTEN || true
cat $WORK/listen.log
printf '^C\n\n'
printf '$ parley trigger message.received   # in a second terminal\n'; cat $WORK/trigger.log; printf '\n'

cd "$WORK"
BODY='{"api_version":"2026-10-14","created_at":"2026-10-14T09:30:00Z","data":{"message":"Hello"},"id":"evt_0123456789abcdef0123456789abcdef","livemode":false,"type":"webhook.test"}'
printf '%s' "$BODY" > body.json
show parley webhooks sign --secret whsec_0123456789abcdefghijABCDEFGHIJ01 --body body.json --timestamp 1800000000
node "$CLI" webhooks sign --secret whsec_0123456789abcdefghijABCDEFGHIJ01 --body body.json --json \
  | node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>process.stdout.write(JSON.stringify(JSON.parse(s).headers)))" > headers.json
show parley webhooks verify --secret whsec_0123456789abcdefghijABCDEFGHIJ01 --headers headers.json --body body.json
show parley webhooks verify --secret whsec_zyxwvutsrqponmlkjihgfedcbaZYXWVU --headers headers.json --body body.json
