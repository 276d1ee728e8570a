package cli

import (
	"context"
	"errors"
	"strings"

	"github.com/errorlab/errorlab/quiz"
	"github.com/errorlab/errorlab/scenarios"
)

// catalog loads the built-in scenarios, overlaid with --content.
func (a *app) catalog() (*scenarios.Catalog, error) {
	c, err := scenarios.Load(a.content)
	if err == nil {
		return c, nil
	}
	var le *scenarios.LoadError
	if errors.As(err, &le) {
		return nil, usagef("the scenario content has problems, so nothing was loaded:\n%v\nFix these lines (or drop --content) and try again", err)
	}
	if a.content != "" {
		// The built-in catalogue always loads; a failure here is --content's.
		return nil, usagef("--content %s: %v", a.content, err)
	}
	return nil, err
}

// bank loads the question bank, overlaid with --questions.
func (a *app) bank(c *scenarios.Catalog) (*quiz.Bank, error) {
	b, err := quiz.LoadBankDir(a.questions, c)
	var be *quiz.BankError
	if errors.As(err, &be) {
		return nil, usagef("the questions in %s have problems, so none were loaded:\n%v\nFix these lines (or drop --questions) and try again", a.questions, err)
	}
	if err != nil && a.questions != "" {
		return nil, usagef("--questions %s: %v", a.questions, err)
	}
	return b, err
}

// catalogBank loads the catalogue (with --content) and the question bank
// (with --questions) checked against it.
func (a *app) catalogBank() (*scenarios.Catalog, *quiz.Bank, error) {
	c, err := a.catalog()
	if err != nil {
		return nil, nil, err
	}
	b, err := a.bank(c)
	if err != nil {
		return nil, nil, err
	}
	return c, b, nil
}

// pool loads the question bank and the catalogue's drills, and returns
// the catalogue too.
func (a *app) pool() (*quiz.Pool, *scenarios.Catalog, error) {
	c, bank, err := a.catalogBank()
	if err != nil {
		return nil, nil, err
	}
	p, err := quiz.LoadPool(context.Background(), bank, c)
	return p, c, err
}

func unknownScenario(c *scenarios.Catalog, id string) error {
	return usagef("no scenario %q. Closest ids: %s\n(`errorlab scenarios list` shows them all)", id, strings.Join(c.Closest(id, 3), ", "))
}
