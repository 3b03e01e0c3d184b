# syntax=docker/dockerfile:1
# MinIO built from source with the same pin as infra/local/lib.sh (MINIO_VERSION): MinIO's
# community edition is distributed as source and installed with `go install`.
ARG GO_IMAGE=golang:1.24-bookworm
FROM ${GO_IMAGE} AS build
ARG MINIO_VERSION=v0.0.0-20260212201848-7aac2a2c5b7c
RUN CGO_ENABLED=0 GOFLAGS="-trimpath -buildvcs=false" GOBIN=/out \
    go install -ldflags "-s -w" "github.com/minio/minio@${MINIO_VERSION}"

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends curl ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 1001 --home-dir /data minio \
 && mkdir -p /data && chown minio:minio /data
COPY --from=build /out/minio /usr/local/bin/minio
USER minio
VOLUME ["/data"]
EXPOSE 9000 9001
ENTRYPOINT ["/usr/local/bin/minio"]
CMD ["server", "/data", "--address", ":9000", "--console-address", ":9001"]
