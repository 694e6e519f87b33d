package hooks

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPullPayloadConverted: the converters read Forgejo's
// PullRequestPayload (pull_request with merged) and its review events:
// a merge is "merged", an approval a review line with its content.
func TestPullPayloadConverted(t *testing.T) {
	t.Parallel()
	type pullPayload struct {
		Action      string         `json:"action"`
		Number      int64          `json:"number"`
		PullRequest map[string]any `json:"pull_request"`
		Repository  *PayloadRepo   `json:"repository"`
		Sender      *PayloadUser   `json:"sender"`
		Review      *PayloadReview `json:"review"`
	}
	base := pullPayload{Number: 3, Repository: &PayloadRepo{FullName: "o/r"}, Sender: &PayloadUser{UserName: "u"},
		PullRequest: map[string]any{"title": "T", "html_url": "https://f/o/r/pulls/3", "merged": true,
			"head": map[string]any{"ref": "feat"}, "base": map[string]any{"ref": "main"}}}
	for _, tc := range []struct {
		name, typ, action string
		review            *PayloadReview
		title, desc       string
		color             int
	}{
		{name: "merged", typ: "pull_request", action: ActionClosed, title: "[o/r] Pull request merged: #3 T", color: colorPurple},
		{name: "approved", typ: ReviewApproved, action: ActionReviewed, review: &PayloadReview{Type: ReviewApproved, Content: "LGTM"},
			title: "[o/r] Pull request review approved: #3 T", desc: "LGTM", color: colorGreen},
		{name: "rejected", typ: ReviewRejected, action: ActionReviewed, review: &PayloadReview{Type: ReviewRejected, Content: "no"},
			title: "[o/r] Pull request review requested changes: #3 T", desc: "no", color: colorRed},
	} {
		p := base
		p.Action, p.Review = tc.action, tc.review
		b, err := json.Marshal(p)
		require.NoError(t, err)
		out, err := convert(discordConverter{}, &Task{Event: "pull_request", EventType: tc.typ, Payload: b})
		require.NoError(t, err, tc.name)
		m := out.(DiscordMessage)
		assert.Equal(t, tc.title, m.Embeds[0].Title, tc.name)
		assert.Equal(t, tc.desc, m.Embeds[0].Description, tc.name)
		assert.Equal(t, tc.color, m.Embeds[0].Color, tc.name)
	}
}
