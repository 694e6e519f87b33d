package issues

import (
	"context"
	"errors"

	"github.com/hearthforge/hearth/forge"
)

// ReviewRequestCheck is what Forgejo's IsValidReviewRequest reads of one
// request to add or remove a user reviewer of a pull request.
type ReviewRequestCheck struct {
	// Add: a request is made (else removed).
	Add bool
	// ReviewerIsOrg, DoerIsOrg: the reviewer or the doer is an
	// organisation.
	ReviewerIsOrg, DoerIsOrg bool
	// ReviewerCanRead: the reviewer may read the pull requests.
	ReviewerCanRead bool
	// ReviewerIsPoster, DoerIsPoster: the reviewer or the doer opened the
	// pull request.
	ReviewerIsPoster, DoerIsPoster bool
	// DoerCanWrite: the doer may write pull requests; DoerIsOfficial: the
	// doer's approval would count (Forgejo's IsOfficialReviewer);
	// DoerIsAdmin: the doer administers the repository.
	DoerCanWrite, DoerIsOfficial, DoerIsAdmin bool
	// LastReviewType is the type of the reviewer's newest approval,
	// rejection or request on the pull request; LastReview false if none.
	LastReview     bool
	LastReviewType ReviewType
	// DoerIsReviewer: the doer is the reviewer.
	DoerIsReviewer bool
}

// Reasons Forgejo gives when a review request is refused (422).
const (
	reasonOrgReviewer   = "Organization can't be added as reviewer"
	reasonOrgDoer       = "Organization can't be doer to add reviewer"
	reasonCantRead      = "Reviewer can't read"
	reasonCantChoose    = "Doer can't choose reviewer"
	reasonPosterReview  = "poster of pr can't be reviewer"
	reasonNotAdmin      = "Doer is not admin"
	reasonTeamCantRead  = "Reviewing team can't read repo"
	reasonTeamNotAdmin  = "Only admin users can remove team requests. Doer is not admin"
	msgReReviewOnClosed = "cannot request a re-review on a closed or merged PR"
)

// ReviewRequestRefusal is Forgejo's IsValidReviewRequest
// (services/issue/assignee.go) as a pure rule: the reason a request to
// add or remove a user reviewer is refused, "" when it is allowed. Adding:
// the reviewer must read pull requests; the poster may ask again a
// reviewer who already reviewed; else the doer must be the poster, a
// writer of pulls or an official reviewer; the poster cannot be asked.
// Removing: a reviewer may withdraw their own request; else the doer must
// administer the repository. Organisations are never reviewers nor doers.
func ReviewRequestRefusal(c ReviewRequestCheck) string {
	switch {
	case c.ReviewerIsOrg:
		return reasonOrgReviewer
	case c.DoerIsOrg:
		return reasonOrgDoer
	}
	if !c.Add {
		if c.LastReview && c.LastReviewType == ReviewRequest && c.DoerIsReviewer {
			return ""
		}
		if !c.DoerIsAdmin {
			return reasonNotAdmin
		}
		return ""
	}
	if !c.ReviewerCanRead {
		return reasonCantRead
	}
	if c.DoerIsPoster && c.LastReview && c.LastReviewType != ReviewRequest {
		return ""
	}
	if !c.DoerIsPoster && !c.DoerCanWrite && !c.DoerIsOfficial {
		return reasonCantChoose
	}
	if c.ReviewerIsPoster {
		return reasonPosterReview
	}
	return ""
}

// TeamReviewRequestCheck is what Forgejo's IsValidTeamReviewRequest reads.
type TeamReviewRequestCheck struct {
	Add       bool
	DoerIsOrg bool
	// PrivateRepo: the repository is private; TeamHasRepo: the team was
	// given the repository.
	PrivateRepo, TeamHasRepo                                bool
	DoerIsPoster, DoerCanWrite, DoerIsOfficial, DoerIsAdmin bool
}

// TeamReviewRequestRefusal is Forgejo's IsValidTeamReviewRequest as a
// pure rule: "" when allowed, else the reason.
func TeamReviewRequestRefusal(c TeamReviewRequestCheck) string {
	if c.DoerIsOrg {
		return reasonOrgDoer
	}
	if !c.Add {
		if !c.DoerIsAdmin {
			return reasonTeamNotAdmin
		}
		return ""
	}
	if c.PrivateRepo && !c.TeamHasRepo {
		return reasonTeamCantRead
	}
	if !c.DoerCanWrite && !c.DoerIsPoster && !c.DoerIsOfficial {
		return reasonCantChoose
	}
	return ""
}

// ErrReviewerNotFound: a review request names an unknown user or team.
// A forge.ErrNotFound whose message Forgejo answers (ctx.NotFound with a
// message: `User 'x' not exist`, `Team 'x' not exist`).
var ErrReviewerNotFound = errors.New("reviewer not found")

func reviewerNotFound(kind, name string) error {
	return forge.Reasonf(forge.ErrNotFound, ErrReviewerNotFound, "%s '%s' not exist", kind, name)
}

// notValidReviewRequest is Forgejo's ErrNotValidReviewRequest, answered
// 422: the reason, the doer's id and the repository's.
func notValidReviewRequest(reason string, doer, repo forge.ID) error {
	return forge.Errorf(forge.ErrInvalid, "%s [user_id: %d, repo_id: %d]", reason, doer, repo)
}

// lastReview returns the newest approval, rejection or request of
// reviewer on issue (Forgejo's GetReviewByIssueIDAndUserID), nil if none.
func lastReview(ctx context.Context, tx Tx, issue, reviewer forge.ID) (*Review, error) {
	list, _, err := tx.ListReviews(ctx, ReviewFilter{IssueID: issue, ReviewerID: reviewer,
		Types: []ReviewType{ReviewApprove, ReviewReject, ReviewRequest}}, all)
	if err != nil {
		return nil, err
	}
	var last *Review
	for _, r := range list {
		if last == nil || r.ID > last.ID {
			last = r
		}
	}
	return last, nil
}
