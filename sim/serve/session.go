package serve

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/errorlab/errorlab/sim/mockserver"
	"github.com/errorlab/errorlab/sim/rules"
)

// MaxKept is how many exchanges a session keeps in memory for a watcher,
// and KeptWhenEnded how many once it has ended; the exchange log keeps
// them all, and the report card every failure.
const (
	MaxKept       = 2000
	KeptWhenEnded = 200
)

// session is one client session: its own mock server, its history and
// its report card.
type session struct {
	id        string
	transport string
	srv       *mockserver.Server
	// shadow is a good-style twin of srv, given the same requests in the
	// same order, when srv writes failures in a bad style: its answer is
	// the truth of each failure (what a well-written tool would have
	// said), which the client's move is judged against, as the lab judges
	// a learner against the scenario's truth.
	shadow  *mockserver.Server
	started time.Time
	owner   *Server

	// order is held while an exchange is numbered, logged and scored,
	// so the twin, the log and the card take a session's exchanges in one
	// order.
	order sync.Mutex

	mu        sync.Mutex
	total     int
	client    string
	spec      rules.Revision
	exchanges []*Exchange // each allocated once: growing the history copies pointers
	card      cardBuilder
	ended     bool
	endedAt   time.Time
}

// truth is the good-style twin's response to ex's request when failures
// are written in a bad style and ex is a tools/call (nil otherwise). The
// twin sees every request, initialize included, in order. Call with
// ss.order held.
func (ss *session) truth(ex Exchange) []byte {
	if ss.shadow == nil {
		return nil
	}
	ctx := mockserver.WithVirtualTime(context.Background(), ex.Received.Sub(ss.owner.start).Seconds())
	resp := ss.shadow.HandleMessage(ctx, ex.Request)
	if ex.Method != "tools/call" {
		return nil
	}
	return resp
}

// add records an exchange in the session's history and on its card: the
// same steps for a live exchange and for one read back from the log.
func (ss *session) add(ex Exchange) {
	var truth *rules.Classification
	if ex.Truth != nil {
		truth = ss.owner.classify(ex.Truth)
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.client == "" && ex.Client != "" {
		ss.client = ex.Client
	}
	if ex.Spec != "" {
		ss.spec = ex.Spec
	}
	ss.total++
	ss.exchanges = append(ss.exchanges, &ex)
	if len(ss.exchanges) >= 2*MaxKept { // trim now and then, not on every call
		ss.exchanges = slices.Clone(ss.exchanges[len(ss.exchanges)-MaxKept:])
	}
	ss.card.observe(ex, truth, ss.owner.cfg.Scenario)
}

// cardView is the session's card as it stands at now. Call with ss.mu held.
func (ss *session) cardView(now time.Time) Card {
	c := ss.card.view(now)
	c.Session, c.Transport, c.Client, c.Spec = ss.id, ss.transport, ss.client, ss.spec
	c.Started = ss.started
	if ss.ended {
		c.Ended = ss.endedAt
	}
	c.Exchanges = ss.total
	return c
}

// revision is the revision a request was served under: the one its _meta
// names, else the session's negotiated one (mockserver.RevisionOf).
func (ss *session) revision(h requestHead) rules.Revision {
	if v := h.Params.Meta.ProtocolVersion; v != "" { // (most requests name none: no error to build)
		if r, err := rules.ParseRevision(v); err == nil {
			return r
		}
	}
	return ss.srv.RevisionOf(nil)
}
