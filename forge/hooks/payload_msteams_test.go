package hooks_test

import (
	"testing"

	"github.com/hearthforge/hearth/forge/hooks"
)

// TestMSTeamsPayloads compares the msteams messages with those Forgejo's
// services/webhook/msteams.go builds for the same events.
func TestMSTeamsPayloads(t *testing.T) {
	t.Parallel()
	h := typeHook(hooks.TypeMSTeams, "https://teams.example/webhook/x", nil)
	runPayloadCases(t, h, "POST", "https://teams.example/webhook/x", []payloadCase{
		{name: "push", task: pushTask, url: "", want: `{
  "type": "AdaptiveCard",
  "$schema": "http://adaptivecards.io/schemas/adaptive-card.json",
  "version": "1.5",
  "msteams": {
    "width": "Full"
  },
  "body": [
    {
      "type": "Container",
      "items": [
        {
          "type": "TextBlock",
          "text": "💬 Update | [test/repo](http://localhost:3000/test/repo)",
          "size": "Small",
          "weight": "Bolder",
          "isSubtle": true
        }
      ]
    },
    {
      "type": "Container",
      "items": [
        {
          "type": "TextBlock",
          "text": "[test] 2 new commits by [User One (@user1)](http://localhost:3000/user1)",
          "style": "heading"
        }
      ],
      "style": "default"
    },
    {
      "type": "Container",
      "items": [
        {
          "type": "ColumnSet",
          "columns": [
            {
              "type": "Column",
              "items": [
                {
                  "type": "TextBlock",
                  "text": "[2020558f](http://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778)",
                  "size": "Small",
                  "fontType": "Monospace"
                }
              ],
              "width": "auto"
            },
            {
              "type": "Column",
              "items": [
                {
                  "type": "TextBlock",
                  "text": "commit message",
                  "size": "Small",
                  "maxLines": 3
                }
              ],
              "width": "stretch"
            }
          ]
        },
        {
          "type": "ColumnSet",
          "columns": [
            {
              "type": "Column",
              "items": [
                {
                  "type": "TextBlock",
                  "text": "[2020558f](http://localhost:3000/test/repo/commit/2020558fe2e34debb818a514715839cabd25e778)",
                  "size": "Small",
                  "fontType": "Monospace"
                }
              ],
              "width": "auto"
            },
            {
              "type": "Column",
              "items": [
                {
                  "type": "TextBlock",
                  "text": "commit message",
                  "size": "Small",
                  "maxLines": 3
                }
              ],
              "width": "stretch"
            }
          ]
        }
      ],
      "showBorder": true,
      "style": "emphasis"
    }
  ],
  "actions": [
    {
      "type": "Action.OpenUrl",
      "title": "View in Forgejo",
      "url": "http://localhost:3000/test/repo/compare/2020558fe2e34debb818a514715839cabd25e778...2020558fe2e34debb818a514715839cabd25e778"
    }
  ],
  "style": "default"
}`},
		{name: "issue opened", task: issueTask, url: "", want: `{
  "type": "AdaptiveCard",
  "$schema": "http://adaptivecards.io/schemas/adaptive-card.json",
  "version": "1.5",
  "msteams": {
    "width": "Full"
  },
  "body": [
    {
      "type": "Container",
      "items": [
        {
          "type": "TextBlock",
          "text": "💬 Update | [test/repo](http://localhost:3000/test/repo)",
          "size": "Small",
          "weight": "Bolder",
          "isSubtle": true
        }
      ]
    },
    {
      "type": "Container",
      "items": [
        {
          "type": "TextBlock",
          "text": "Issue opened: #2 crash by [User One (@user1)](http://localhost:3000/user1)",
          "style": "heading"
        }
      ],
      "style": "default"
    },
    {
      "type": "Container",
      "items": [
        {
          "type": "ColumnSet",
          "columns": [
            {
              "type": "Column",
              "items": [
                {
                  "type": "Badge",
                  "text": "Open",
                  "icon": "Target",
                  "size": "Large",
                  "style": "good"
                }
              ],
              "width": "auto"
            },
            {
              "type": "Column",
              "items": [
                {
                  "type": "TextBlock",
                  "text": "test/repo#2",
                  "size": "Small",
                  "isSubtle": true,
                  "spacing": "None"
                }
              ],
              "width": "stretch"
            }
          ]
        }
      ],
      "verticalContentAlignment": "Center"
    },
    {
      "type": "Container",
      "items": [
        {
          "type": "TextBlock",
          "text": "issue body",
          "wrap": true
        }
      ],
      "showBorder": true,
      "style": "emphasis"
    }
  ],
  "actions": [
    {
      "type": "Action.OpenUrl",
      "title": "View in Forgejo",
      "url": "http://localhost:3000/test/repo/issues/2"
    }
  ],
  "style": "default"
}`},
		{name: "issue comment", task: commentTask, url: "", want: `{
  "type": "AdaptiveCard",
  "$schema": "http://adaptivecards.io/schemas/adaptive-card.json",
  "version": "1.5",
  "msteams": {
    "width": "Full"
  },
  "body": [
    {
      "type": "Container",
      "items": [
        {
          "type": "TextBlock",
          "text": "💬 Update | [test/repo](http://localhost:3000/test/repo)",
          "size": "Small",
          "weight": "Bolder",
          "isSubtle": true
        }
      ]
    },
    {
      "type": "Container",
      "items": [
        {
          "type": "TextBlock",
          "text": "New comment on issue #2 crash by [User One (@user1)](http://localhost:3000/user1)",
          "style": "heading"
        }
      ],
      "style": "default"
    },
    {
      "type": "Container",
      "items": [
        {
          "type": "TextBlock",
          "text": "Comment",
          "size": "Small",
          "weight": "Bolder"
        },
        {
          "type": "TextBlock",
          "text": "more info needed",
          "wrap": true
        }
      ],
      "showBorder": true,
      "style": "good"
    }
  ],
  "actions": [
    {
      "type": "Action.OpenUrl",
      "title": "View in Forgejo",
      "url": "http://localhost:3000/test/repo/issues/2#issuecomment-4"
    }
  ],
  "style": "default"
}`},
		{name: "branch created", task: createTask, url: "", want: `{
  "type": "AdaptiveCard",
  "$schema": "http://adaptivecards.io/schemas/adaptive-card.json",
  "version": "1.5",
  "msteams": {
    "width": "Full"
  },
  "body": [
    {
      "type": "Container",
      "items": [
        {
          "type": "TextBlock",
          "text": "💬 Update | [test/repo](http://localhost:3000/test/repo)",
          "size": "Small",
          "weight": "Bolder",
          "isSubtle": true
        }
      ]
    },
    {
      "type": "Container",
      "items": [
        {
          "type": "TextBlock",
          "text": "Branch created: test by [User One (@user1)](http://localhost:3000/user1)",
          "style": "heading"
        }
      ],
      "style": "good"
    }
  ],
  "actions": [
    {
      "type": "Action.OpenUrl",
      "title": "View in Forgejo",
      "url": "http://localhost:3000/test/repo/src/test"
    }
  ],
  "style": "default"
}`},
		{name: "branch deleted", task: deleteTask, url: "", want: `{
  "type": "AdaptiveCard",
  "$schema": "http://adaptivecards.io/schemas/adaptive-card.json",
  "version": "1.5",
  "msteams": {
    "width": "Full"
  },
  "body": [
    {
      "type": "Container",
      "items": [
        {
          "type": "TextBlock",
          "text": "💬 Update | [test/repo](http://localhost:3000/test/repo)",
          "size": "Small",
          "weight": "Bolder",
          "isSubtle": true
        }
      ]
    },
    {
      "type": "Container",
      "items": [
        {
          "type": "TextBlock",
          "text": "Branch deleted: test by [User One (@user1)](http://localhost:3000/user1)",
          "style": "heading"
        }
      ],
      "style": "attention"
    }
  ],
  "actions": [
    {
      "type": "Action.OpenUrl",
      "title": "View in Forgejo",
      "url": "http://localhost:3000/test/repo"
    }
  ],
  "style": "default"
}`},
		{name: "fork", task: forkTask, url: "", want: `{
  "type": "AdaptiveCard",
  "$schema": "http://adaptivecards.io/schemas/adaptive-card.json",
  "version": "1.5",
  "msteams": {
    "width": "Full"
  },
  "body": [
    {
      "type": "Container",
      "items": [
        {
          "type": "TextBlock",
          "text": "💬 Update | [test/repo](http://localhost:3000/test/repo)",
          "size": "Small",
          "weight": "Bolder",
          "isSubtle": true
        }
      ]
    },
    {
      "type": "Container",
      "items": [
        {
          "type": "TextBlock",
          "text": "[test/repo2](http://localhost:3000/test/repo2) is forked to test/repo by [User One (@user1)](http://localhost:3000/user1)",
          "style": "heading"
        }
      ],
      "style": "accent"
    }
  ],
  "actions": [
    {
      "type": "Action.OpenUrl",
      "title": "View in Forgejo",
      "url": "http://localhost:3000/test/repo"
    }
  ],
  "style": "default"
}`},
		{name: "repository created", task: repositoryTask, url: "", want: `{
  "type": "AdaptiveCard",
  "$schema": "http://adaptivecards.io/schemas/adaptive-card.json",
  "version": "1.5",
  "msteams": {
    "width": "Full"
  },
  "body": [
    {
      "type": "Container",
      "items": [
        {
          "type": "TextBlock",
          "text": "💬 Update | [test/repo](http://localhost:3000/test/repo)",
          "size": "Small",
          "weight": "Bolder",
          "isSubtle": true
        }
      ]
    },
    {
      "type": "Container",
      "items": [
        {
          "type": "TextBlock",
          "text": "Repository created: test/repo by [User One (@user1)](http://localhost:3000/user1)",
          "style": "heading"
        }
      ],
      "style": "good"
    }
  ],
  "actions": [
    {
      "type": "Action.OpenUrl",
      "title": "View in Forgejo",
      "url": "http://localhost:3000/test/repo"
    }
  ],
  "style": "default"
}`},
		{name: "pull request opened", task: pullTask, url: "", want: `{
  "type": "AdaptiveCard",
  "$schema": "http://adaptivecards.io/schemas/adaptive-card.json",
  "version": "1.5",
  "msteams": {
    "width": "Full"
  },
  "body": [
    {
      "type": "Container",
      "items": [
        {
          "type": "TextBlock",
          "text": "💬 Update | [test/repo](http://localhost:3000/test/repo)",
          "size": "Small",
          "weight": "Bolder",
          "isSubtle": true
        }
      ]
    },
    {
      "type": "Container",
      "items": [
        {
          "type": "TextBlock",
          "text": "Pull request opened: #12 Fix bug by [User One (@user1)](http://localhost:3000/user1)",
          "style": "heading"
        }
      ],
      "style": "default"
    },
    {
      "type": "Container",
      "items": [
        {
          "type": "ColumnSet",
          "columns": [
            {
              "type": "Column",
              "items": [
                {
                  "type": "Badge",
                  "text": "Open",
                  "icon": "BranchRequest",
                  "size": "Large",
                  "style": "good"
                }
              ],
              "width": "auto"
            },
            {
              "type": "Column",
              "items": [
                {
                  "type": "TextBlock",
                  "text": "",
                  "size": "Small",
                  "isSubtle": true,
                  "spacing": "None"
                },
                {
                  "type": "TextBlock",
                  "text": "test/repo#12",
                  "size": "Small",
                  "isSubtle": true,
                  "spacing": "None"
                }
              ],
              "width": "stretch"
            }
          ]
        }
      ],
      "verticalContentAlignment": "Center"
    },
    {
      "type": "Container",
      "items": [
        {
          "type": "TextBlock",
          "text": "fixes bug #2",
          "wrap": true
        }
      ],
      "showBorder": true,
      "style": "emphasis"
    },
    {
      "type": "Container",
      "items": [
        {
          "type": "FactSet",
          "facts": [],
          "separator": true
        }
      ]
    }
  ],
  "actions": [
    {
      "type": "Action.OpenUrl",
      "title": "View in Forgejo",
      "url": "http://localhost:3000/test/repo/pulls/12"
    }
  ],
  "style": "default"
}`},
		{name: "pull request comment", task: pullCommentTask, url: "", want: `{
  "type": "AdaptiveCard",
  "$schema": "http://adaptivecards.io/schemas/adaptive-card.json",
  "version": "1.5",
  "msteams": {
    "width": "Full"
  },
  "body": [
    {
      "type": "Container",
      "items": [
        {
          "type": "TextBlock",
          "text": "💬 Update | [test/repo](http://localhost:3000/test/repo)",
          "size": "Small",
          "weight": "Bolder",
          "isSubtle": true
        }
      ]
    },
    {
      "type": "Container",
      "items": [
        {
          "type": "TextBlock",
          "text": "New comment on pull request #12 Fix bug by [User One (@user1)](http://localhost:3000/user1)",
          "style": "heading"
        }
      ],
      "style": "default"
    },
    {
      "type": "Container",
      "items": [
        {
          "type": "TextBlock",
          "text": "Comment",
          "size": "Small",
          "weight": "Bolder"
        },
        {
          "type": "TextBlock",
          "text": "changes requested",
          "wrap": true
        }
      ],
      "showBorder": true,
      "style": "good"
    }
  ],
  "actions": [
    {
      "type": "Action.OpenUrl",
      "title": "View in Forgejo",
      "url": "http://localhost:3000/test/repo/pulls/12#issuecomment-4"
    }
  ],
  "style": "default"
}`},
	})
}
