import { type LoaderFunctionArgs, Outlet } from "react-router";
import { requireCustomer } from "~/auth/session.server";
import { requestContext } from "~/lib/router-context.server";

/** Its pages may opt in to the render memo: this layout renders nothing but them. */
export const handle = { renderMemo: true };

/** The account area: every page inside needs a signed-in customer. */
export function loader({ request, context: routerContext }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const { customer } = requireCustomer(context, request);
  return { email: customer.email };
}

export default function AccountLayout() {
  return <Outlet />;
}
