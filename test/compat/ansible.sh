#!/bin/bash
# Runs the Nautobot Ansible collection's integration fixture and task files against a built netinv
# checkout: COMPAT_DIR=<dir> bash test/compat/ansible.sh <checkout> [task ...] (tasks: file names
# without .yml; default all, in main.yml order). Needs ansible-core, python3-netaddr, jmespath.
set -u
SRC=${1:?checkout}; shift
PORT=${PORT:-8911}
TOKEN=0123456789abcdef0123456789abcdef01234567
HERE=${COMPAT_DIR:?set COMPAT_DIR to a directory holding ansible_collections/networktocode/nautobot (nautobot-ansible v4.5.1) and pynautobot (v1.5.5)}
COLL=$HERE/ansible_collections/networktocode/nautobot
DB=$(mktemp -d)/netinv.sqlite
# The example plugin serves /api/plugins/bgp/autonomous-systems/, which plugin_bgp_asn drives.
export NETINV_PLUGINS=${NETINV_PLUGINS:-$SRC/dist/plugins/netinv-bgp}
export DATABASE_URL=sqlite:$DB PYTHONPATH=$HERE/pynautobot ANSIBLE_COLLECTIONS_PATH=$HERE ANSIBLE_NOCOLOR=1
node $SRC/dist/app/cli/main.js migrate >/dev/null
node $SRC/dist/app/cli/main.js createsuperuser --username admin --password 'admin password' >/dev/null
node $SRC/dist/app/cli/main.js createtoken --username admin --key $TOKEN >/dev/null
PORT=$PORT node $SRC/dist/app/cli/main.js serve --port $PORT > $HERE/server.log 2>&1 &
SERVER=$!
trap 'kill $SERVER' EXIT
for i in $(seq 50); do curl -s -o /dev/null http://127.0.0.1:$PORT/api/ && break; sleep 0.2; done
NAUTOBOT_URL=http://127.0.0.1:$PORT NAUTOBOT_TOKEN=$TOKEN python3 "$COLL/tests/integration/nautobot-populate.py" > $HERE/populate.log 2>&1; echo "populate exit $? ($(grep -c . $HERE/populate.log) output lines)"
TASKS=$COLL/tests/integration/targets/latest/tasks
if [ $# -eq 0 ]; then set -- $(grep -o 'file: "[a-z_]*.yml"' $TASKS/main.yml | sed 's/file: "//; s/.yml"//'); fi
mkdir -p $HERE/logs
for t in "$@"; do
  cat > $HERE/play.yml <<YML
- hosts: localhost
  connection: local
  gather_facts: false
  ignore_errors: true
  vars: { nautobot_url: "http://127.0.0.1:$PORT", nautobot_token: "$TOKEN", nautobot_version: "1.6" }
  tasks:
    - include_tasks: $TASKS/$t.yml
YML
  ansible-playbook -i localhost, $HERE/play.yml > $HERE/logs/$t.log 2>&1
  recap=$(grep -A1 'PLAY RECAP' $HERE/logs/$t.log | tail -1)
  ok=$(echo "$recap" | grep -o 'ok=[0-9]*' | cut -d= -f2); ign=$(echo "$recap" | grep -o 'ignored=[0-9]*' | cut -d= -f2); fl=$(echo "$recap" | grep -o 'failed=[0-9]*' | cut -d= -f2)
  echo "$t ok=${ok:-?} failed=$(( ${ign:-0} + ${fl:-0} ))"
done
