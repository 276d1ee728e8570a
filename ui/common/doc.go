// Package common is what every page and component of errorlab's terminal
// interface shares (soft-serve pkg/ui/common): Common, built once per
// session (the renderer, Styles, keys, size, content, progress and the
// status line); the Screen interface a page implements and the optional
// interfaces the root model looks for; the messages a page sends to the
// root ("open scenario X", "back"); and small text helpers for laying out
// cells. It imports no page and no component.
package common
