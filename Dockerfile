# The reference simulator as a container image, built from nothing but this machine's files:
# tools/docker/build-image.sh stages a root filesystem (the local node, the libraries ldd lists
# for it and for DuckDB's native module, the project with its runtime node_modules) and builds
# this file with that tree as the context. No registry image is pulled. Ports: 8080 the API, hooks under /__eac; 8081 the hub.
FROM scratch
COPY . /
WORKDIR /eac
ENV NODE_ENV=production HOME=/tmp TMPDIR=/tmp
EXPOSE 8080 8081
ENTRYPOINT ["/usr/bin/node", "/eac/bin/eac.mjs", "serve", "--hooks", "--host", "0.0.0.0", "--port", "8080", "--hub-port", "8081"]
