// compose-check validates docker-compose.yml with compose-go, the parser of `docker compose` v2
// (schema validation, interpolation, YAML anchors and merges, references), for machines that
// have no `docker compose` plugin. Then it checks docflow's own rules for the file.
// Usage: compose-check [-repo DIR] FILE
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"
)

var appServices = map[string]uint32{
	"gateway": 8080, "identity": 8081, "document": 8082,
	"workflow": 8083, "files": 8084, "recognition": 8085, "webhooks": 8086,
}

func main() {
	repo := flag.String("repo", ".", "repository root (for service entry points)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: compose-check [-repo DIR] docker-compose.yml")
		os.Exit(2)
	}
	file := flag.Arg(0)
	opts, err := cli.NewProjectOptions([]string{file},
		cli.WithWorkingDirectory(filepath.Dir(file)),
		cli.WithOsEnv,
		cli.WithDotEnv,
		cli.WithName("docflow"),
	)
	if err != nil {
		fail(err)
	}
	project, err := opts.LoadProject(context.Background())
	if err != nil {
		fail(err)
	}

	var problems []string
	add := func(format string, a ...any) { problems = append(problems, fmt.Sprintf(format, a...)) }

	names := make([]string, 0, len(project.Services))
	for name := range project.Services {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, required := range []string{"kafka", "kurrentdb", "minio"} {
		if _, ok := project.Services[required]; !ok {
			add("engine %q is missing", required)
		}
	}
	// A service belongs in the stack once it has an entry point; each one it has must be in it.
	present := map[string]bool{}
	for name := range appServices {
		if _, err := os.Stat(filepath.Join(*repo, "services", name, "src", "main.ts")); err == nil {
			present[name] = true
		}
	}
	urls := []string{}
	for name := range present {
		if name != "gateway" {
			urls = append(urls, strings.ToUpper(name)+"_URL")
		}
	}
	sort.Strings(urls)
	for name, port := range appServices {
		svc, ok := project.Services[name]
		if !present[name] {
			if ok {
				add("service %q is in the stack but services/%s/src/main.ts does not exist", name, name)
			}
			continue
		}
		if !ok {
			add("service %q is missing", name)
			continue
		}
		if svc.Build == nil || filepath.ToSlash(svc.Build.Dockerfile) != "infra/docker/Dockerfile" {
			add("%s: must be built from infra/docker/Dockerfile", name)
		}
		want := []string{"node", "--import", "tsx", "services/" + name + "/src/main.ts"}
		if strings.Join(svc.Command, " ") != strings.Join(want, " ") {
			add("%s: command is %q, want %q", name, svc.Command, want)
		}
		if p := env(svc, "PORT"); p != fmt.Sprint(port) {
			add("%s: PORT=%q, want %d", name, p, port)
		}
		if env(svc, "DOCFLOW_MODE") != "distributed" {
			add("%s: DOCFLOW_MODE must be distributed", name)
		}
		for _, k := range append([]string{"KAFKA_BROKERS", "EVENTSTORE_CONNECTION_STRING", "MINIO_ENDPOINT",
			"MINIO_ACCESS_KEY", "MINIO_SECRET_KEY", "DOCFLOW_INTERNAL_TOKEN"}, urls...) {
			if env(svc, k) == "" {
				add("%s: %s is not set", name, k)
			}
		}
	}
	for _, name := range names {
		svc := project.Services[name]
		if svc.HealthCheck == nil || len(svc.HealthCheck.Test) == 0 {
			add("%s: no healthcheck", name)
		}
		for dep, cfg := range svc.DependsOn {
			if cfg.Condition != types.ServiceConditionHealthy {
				add("%s: depends_on %s should wait for service_healthy", name, dep)
			}
		}
		for _, p := range svc.Ports {
			if p.HostIP != "127.0.0.1" {
				add("%s: port %d is published on %q, not 127.0.0.1", name, p.Target, p.HostIP)
			}
		}
	}
	if len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintln(os.Stderr, "compose-check:", p)
		}
		os.Exit(1)
	}
	fmt.Printf("compose-check: %s is valid (compose-go): %d services: %s\n", file, len(names), strings.Join(names, ", "))
}

func env(svc types.ServiceConfig, key string) string {
	if v, ok := svc.Environment[key]; ok && v != nil {
		return *v
	}
	return ""
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "compose-check: invalid:", err)
	os.Exit(1)
}
