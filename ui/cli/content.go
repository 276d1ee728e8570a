package cli

import (
	"context"
	"errors"
	"fmt"
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
	if err == nil && a.questions != "" {
		// Design findings do not stop the files loading (README, "Questions
		// work the same way"), but the instructor hears of them.
		if ps := quiz.ReviewDir(a.questions); len(ps) > 0 {
			fmt.Fprintf(a.Stderr, "errorlab: the questions in %s loaded, but their design has %s (easy to guess, or one question answers another):\n", a.questions, quiz.Plural(len(ps), "problem"))
			for _, p := range ps {
				fmt.Fprintf(a.Stderr, "  %s\n", p)
			}
			fmt.Fprintf(a.Stderr, "`errorlab questions validate %s` lists them too.\n", a.questions)
		}
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
