/**
 * Screens the landing page does not need, loaded when first shown. The sign-in screen is also
 * asked for as soon as a visitor points at or focuses a link to it, so it is there on the click.
 */
export const loadLoginPage = () => import('../login/LoginPage');
