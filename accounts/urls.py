from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from accounts import views
from accounts.forms import LoginForm
from club.doors import csp

app_name = "accounts"

urlpatterns = [
    path("signup/", views.sign_up, name="sign_up"),
    path(
        "login/",
        csp.telegram_login(
            auth_views.LoginView.as_view(
                authentication_form=LoginForm,
                template_name="accounts/login.html",
                redirect_authenticated_user=True,
            )
        ),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("profile/", views.profile, name="profile"),
    path("settings/", views.member_settings, name="settings"),
    path("settings/data/", views.member_data_download, name="my_data"),
    path("settings/forget/", views.member_forget, name="forget"),
    path("settings/clubs/<int:club_id>/consent/", views.club_consent, name="club_consent"),
    path("settings/clubs/<int:club_id>/leave/", views.club_leave, name="club_leave"),
    path("tokens/", views.api_token_create, name="token_create"),
    path("tokens/<int:token_id>/revoke/", views.api_token_revoke, name="token_revoke"),
    path("telegram/login/", views.telegram_login, name="telegram_login"),
    path("telegram/link/", views.telegram_link, name="telegram_link"),
    path("telegram/unlink/", views.telegram_unlink, name="telegram_unlink"),
    path("password/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(template_name="accounts/password_reset_done.html"),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            template_name="accounts/password_reset_confirm.html",
            success_url=reverse_lazy("accounts:password_reset_complete"),
        ),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name="accounts/password_reset_complete.html"
        ),
        name="password_reset_complete",
    ),
]
