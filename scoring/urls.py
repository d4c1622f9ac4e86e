"""URLs of the scoring app, included at the site root by handsite/urls.py. Use paths such as
"groups/<slug:group_slug>/scoring/..." and the handsite.access.group_view decorator."""

app_name = "scoring"

urlpatterns: list = []
