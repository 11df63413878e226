//go:build tools

// Package tools pins the official Temporal server, its SQL schema tool and its UI server, the release the
// pinned CLI embeds (deploy/temporal-cli: CLI v1.5.1 = server v1.29.1), so that
// `go build go.temporal.io/server/cmd/server` and `go build go.temporal.io/server/cmd/tools/sql`
// resolve from the module proxy. The dependency versions are the CLI's own (this go.mod started
// as a copy of deploy/temporal-cli/go.mod), so both builds link the same server code.
package tools

import (
	_ "go.temporal.io/server/cmd/server"
	_ "go.temporal.io/server/cmd/tools/sql"

	// The Temporal UI as its own server (the CLI embeds the same release, 2.42.1, in start-dev).
	_ "github.com/temporalio/ui-server/v2/cmd/server"
)
