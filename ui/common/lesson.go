package common

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/errorlab/errorlab/sim/rules"
	"github.com/errorlab/errorlab/sim/wire"
)

func LooksLikeErrorText(ex wire.Exchange) bool {
	env, err := rules.ParseEnvelope(ex.Response)
	if err != nil || env.Result == nil {
		return false
	}
	for _, t := range env.Result.Texts() {
		if rules.LooksLikeError(t) {
			return true
		}
	}
	return false
}

// RevisionBlurb says in one line what a revision changes for errors.
func RevisionBlurb(r rules.Revision) string {
	switch r {
	case rules.Rev20250618:
		return "arguments that break inputSchema are protocol errors (-32602)"
	case rules.Rev20251125:
		return "argument errors are isError results the model can correct (SEP-1303); unknown tool stays -32602"
	case rules.Rev20260728:
		return "error rules as 2025-11-25; stateless: server/discover, _meta on requests, resultType on results"
	}
	return ""
}

func GradeWord(g rules.Grade) string {
	switch g {
	case rules.GradeBest:
		return "correct"
	case rules.GradeAcceptable:
		return "acceptable"
	}
	return "not the best move"
}

// ArgsJSON is the arguments as compact JSON with sorted keys, without
// HTML escaping.
func ArgsJSON(v map[string]any) string {
	if len(v) == 0 {
		return "{}"
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSpace(b.String())
}
