#!/bin/sh
# Compose passes optional settings as `${VAR:-}`; an empty value means "not set" to docflow's
# config schemas, so drop empty variables before starting the service.
set -eu
for name in $(env | sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)=$/\1/p'); do
  unset "$name"
done
exec "$@"
