# symsim in a container: Debian 12, built and tested by ./dev test (the image fails to build if
# any test fails), installed into /usr/local.
#   docker build -t symsim .
#   docker run --rm symsim run /usr/local/share/symsim/scenarios/udma/udma_put_signal_2pe.json
#   docker run --rm -v "$PWD:/work" -w /work symsim run my_scenario.json --out out
# The PTX litmus suite is not in the image: its tests are skipped (docs/litmus.md).
FROM debian:12

ENV DEBIAN_FRONTEND=noninteractive
# git only names the commit in `symsim --version` (the build context keeps .git when it is a
# plain clone); everything else ./dev installs itself.
RUN apt-get update \
 && apt-get install -y --no-install-recommends git ca-certificates \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /src/symsim
COPY . .
RUN ./dev test \
 && cmake --install build --prefix /usr/local \
 && rm -rf build /var/lib/apt/lists/*

WORKDIR /work
ENTRYPOINT ["symsim"]
CMD ["--help"]
