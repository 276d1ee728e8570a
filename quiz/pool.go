package quiz

import (
	"context"

	"github.com/errorlab/errorlab/scenarios"
)

// LoadPool builds the full pool: every authored question of the bank and
// every drill generated from the catalogue. A drill's story is the story
// the bank's questions give its scenario (so the drills of Sam's staff
// record and a question about it count as one story), else the scenario's
// id.
func LoadPool(ctx context.Context, bank *Bank, c *scenarios.Catalog) (*Pool, error) {
	var qs []*Item
	story := map[string]string{}
	for _, q := range bank.Questions {
		qs = append(qs, FromQuestion(q))
		if q.Scenario != "" && q.Story != "" && story[q.Scenario] == "" {
			story[q.Scenario] = q.Story
		}
	}
	drills, err := Drills(ctx, c)
	if err != nil {
		return nil, err
	}
	for _, d := range drills {
		d.Story = d.Scenario
		if s := story[d.Scenario]; s != "" {
			d.Story = s
		}
	}
	return NewPool(qs, drills)
}
