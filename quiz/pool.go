package quiz

import (
	"context"

	"github.com/errorlab/errorlab/scenarios"
)

// LoadPool builds the full pool: every authored question of the bank and
// every drill generated from the catalogue.
func LoadPool(ctx context.Context, bank *Bank, c *scenarios.Catalog) (*Pool, error) {
	var qs []*Item
	for _, q := range bank.Questions {
		qs = append(qs, FromQuestion(q))
	}
	drills, err := Drills(ctx, c)
	if err != nil {
		return nil, err
	}
	return NewPool(qs, drills)
}
